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
  kNotEquivalent = 7, // tcx verify: the programs differ (like diff's 1, but distinct from errors); tcx profile
                      // --check: a plan's GPU outputs differ from the reference
  kDeviceError = 8,   // the GPU failed: out of device memory, a fault inside a generated kernel
};

ExitCode exitCodeFor(ErrorKind kind);

} // namespace tcx::cli
