#include "ops/movement/Operands.h"

#include <algorithm>

namespace tcx {

std::vector<int64_t> intList(const Tensor& operand, const char* what) {
  TCX_CHECK(operand.rank() <= 1, ErrorKind::InvalidModel, "{} must be a 1-D tensor, got {}", what,
            operand.type().toString());
  TCX_CHECK(isInteger(operand.dtype()), ErrorKind::InvalidModel, "{} must be an integer tensor, got {}", what,
            operand.type().toString());
  return operand.toInt64Vector();
}

const Tensor* optionalValue(const InferContext& ctx, size_t i, const char* what) {
  return ctx.hasInput(i) ? &ctx.requireInputValue(i, what) : nullptr;
}

const Tensor* optionalValue(const KernelContext& ctx, size_t i) { return ctx.hasInput(i) ? &ctx.input(i) : nullptr; }

int64_t dimensionAxis(int64_t axis, int64_t rank) {
  TCX_CHECK(axis >= -rank && axis < rank, ErrorKind::ShapeInference, "axis {} is out of range for rank {}", axis,
            rank);
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> normalizeAxes(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> normalized;
  for (int64_t axis : axes) {
    int64_t a = dimensionAxis(axis, rank);
    TCX_CHECK(std::find(normalized.begin(), normalized.end(), a) == normalized.end(), ErrorKind::ShapeInference,
              "axis {} is given twice", axis);
    normalized.push_back(a);
  }
  return normalized;
}

} // namespace tcx
