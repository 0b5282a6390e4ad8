#include "support/Error.h"

namespace tcx {

const char* errorKindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::InvalidArgument: return "invalid argument";
  case ErrorKind::Io: return "I/O error";
  case ErrorKind::InvalidModel: return "invalid model";
  case ErrorKind::Unsupported: return "unsupported";
  case ErrorKind::ShapeInference: return "shape inference";
  case ErrorKind::DataDependentShape: return "data-dependent shape";
  case ErrorKind::Device: return "GPU error";
  case ErrorKind::Internal: return "internal error";
  }
  return "error";
}

} // namespace tcx
