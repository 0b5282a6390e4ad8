#include "ops/reduction/Common.h"

namespace tcx::reduction {

int64_t checkedAxis(int64_t axis, int64_t rank) {
  TCX_CHECK(axis >= -rank && axis < rank, ErrorKind::ShapeInference, "axis {} is out of range for rank {}", axis,
            rank);
  return axis < 0 ? axis + rank : axis;
}

int64_t cumSumAxis(const Tensor& axis, int64_t rank) {
  TCX_CHECK(isInteger(axis.dtype()) && axis.rank() <= 1 && axis.numElements() == 1, ErrorKind::InvalidModel,
            "the axis of CumSum must be one integer, not {}", axis.type().toString());
  return checkedAxis(axis.elementAsInt64(0), rank);
}

AxisSplit::AxisSplit(const Shape& shape, int64_t axis) {
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  n = shape[axis];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
}

void inferAlongAxis(InferContext& ctx) {
  const TensorType& in = ctx.inputType(0);
  checkDType<DTypeSet::Float>(in.dtype);
  checkedAxis(ctx.attrs().getInt("axis", -1), in.rank());
  ctx.setOutputType(0, in);
}

} // namespace tcx::reduction
