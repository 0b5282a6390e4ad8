#include "ExitCode.h"

namespace tcx::cli {

ExitCode exitCodeFor(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::InvalidArgument: return kUsageError;
  case ErrorKind::Io: return kIoError;
  case ErrorKind::InvalidModel: return kInvalidModel;
  case ErrorKind::Unsupported: return kUnsupported;
  case ErrorKind::ShapeInference:
  case ErrorKind::DataDependentShape: return kShapeError;
  case ErrorKind::Device: return kDeviceError;
  case ErrorKind::Internal: return kInternalError;
  }
  return kInternalError;
}

} // namespace tcx::cli
