#include "onnx/CheckedType.h"

#include "support/Error.h"

#include <limits>

namespace tcx {

TensorType checkedTensorType(DType dtype, Shape shape) {
  int64_t limit = std::numeric_limits<int64_t>::max() / static_cast<int64_t>(dtypeSize(dtype));
  int64_t count = 1;
  for (int64_t d : shape) {
    TCX_CHECK(d >= 0, ErrorKind::InvalidModel, "negative dimension in shape {}", shapeToString(shape));
    TCX_CHECK(d == 0 || count <= limit / d, ErrorKind::InvalidModel, "shape {} is too large", shapeToString(shape));
    count *= d;
  }
  return TensorType{dtype, std::move(shape)};
}

} // namespace tcx
