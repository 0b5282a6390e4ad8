// Slice: a strided window of the input, one strided view.

#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/Views.h"

#include <algorithm>
#include <numeric>

namespace tcx {

namespace {

struct AxisRange {
  int64_t start;
  int64_t count;
};

// The elements one slice axis of size `dim` selects. Negative start and end
// count from the end; both are then clamped into the axis, so that INT_MAX
// ends and out-of-range starts stop at the edge. With a negative step the
// walk goes backwards from start down to end, exclusive, and end may then
// be -1 (before the first element).
AxisRange sliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step) {
  TCX_CHECK(step != 0, ErrorKind::InvalidModel, "slice steps must not be 0");
  if (dim == 0) return {0, 0};
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    return {start, end > start ? (end - start - 1) / step + 1 : 0};
  }
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  return {start, start > end ? (end - start + 1) / step + 1 : 0};
}

void inferSlice(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  StridedView view = sliceView(data.shape, ctx.requireInputValue(1, "starts"), ctx.requireInputValue(2, "ends"),
                               optionalValue(ctx, 3, "axes"), optionalValue(ctx, 4, "steps"));
  ctx.setOutputType(0, {data.dtype, view.shape});
}

void runSlice(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(sliceView(data.shape(), ctx.input(1), ctx.input(2), optionalValue(ctx, 3), optionalValue(ctx, 4)), data,
           ctx.output(0));
}

} // namespace

StridedView sliceView(const Shape& in, const Tensor& startsValue, const Tensor& endsValue, const Tensor* axesValue,
                      const Tensor* stepsValue) {
  std::vector<int64_t> starts = intList(startsValue, "starts");
  std::vector<int64_t> ends = intList(endsValue, "ends");
  const size_t n = starts.size();
  std::vector<int64_t> axes(n);
  std::iota(axes.begin(), axes.end(), 0);
  if (axesValue) axes = intList(*axesValue, "axes");
  std::vector<int64_t> steps = stepsValue ? intList(*stepsValue, "steps") : std::vector<int64_t>(n, 1);
  TCX_CHECK(ends.size() == n && axes.size() == n && steps.size() == n, ErrorKind::InvalidModel,
            "starts, ends, axes and steps differ in length ({}, {}, {}, {})", n, ends.size(), axes.size(),
            steps.size());
  axes = normalizeAxes(axes, static_cast<int64_t>(in.size()));

  StridedView view = contiguousView(in);
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = axes[i];
    AxisRange range = sliceAxis(in[a], starts[i], ends[i], steps[i]);
    view.shape[a] = range.count;
    view.offset += range.start * view.strides[a];
    // An axis of one element never steps, and skipping it keeps huge steps from overflowing.
    if (range.count > 1) view.strides[a] *= steps[i];
  }
  return view;
}

void registerSliceOp(OpRegistry& registry) {
  registry.add({.name = "Slice",
                .opClass = OpClass::DataMovement,
                .minInputs = 3,
                .maxInputs = 5,
                .infer = inferSlice,
                .kernel = runSlice,
                .movement = sliceRule});
}

} // namespace tcx
