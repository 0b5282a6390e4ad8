#pragma once
// Exit codes of `tcx`, documented in docs/cli.md.

#include "support/Error.h"

namespace tcx::cli {

enum ExitCode : int {
  kOk = 0,
  kInternalError = 1,
  kUsageError = 2,
  kIoError = 3,
  kInvalidModel = 4,
  kUnsupported = 5,
  kShapeError = 6,
};

ExitCode exitCodeFor(ErrorKind kind);

} // namespace tcx::cli
