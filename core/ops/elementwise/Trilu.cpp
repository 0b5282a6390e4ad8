// Trilu: keeps the upper (j >= i + k) or lower (j <= i + k) triangle of the
// last two dimensions and zeroes the rest. It only moves bytes, so one
// dtype-independent loop of row segments serves every dtype.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <algorithm>
#include <cstring>

namespace tcx::elementwise {

namespace {

void inferTrilu(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  TCX_CHECK(x.rank() >= 2, ErrorKind::ShapeInference, "Trilu needs a tensor of rank 2 or more, got {}", x.toString());
  if (ctx.hasInput(1)) {
    TCX_CHECK(ctx.inputType(1).dtype == DType::I64, ErrorKind::ShapeInference, "k must be i64, got {}",
              dtypeName(ctx.inputType(1).dtype));
    checkSingleElement(ctx, 1, "k");
  }
  ctx.setOutputType(0, x);
}

void triluKernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output(0);
  const int64_t rows = x.shape()[x.rank() - 2], cols = x.shape()[x.rank() - 1];
  if (x.numElements() == 0) return;
  const bool upper = ctx.attrs().getInt("upper", 1) != 0;
  // Past these bounds every row is kept whole or zeroed whole; clamping
  // keeps i + k from overflowing.
  const int64_t k = std::clamp<int64_t>(ctx.hasInput(1) ? ctx.input(1).elementAsInt64(0) : 0, -rows, cols);
  const size_t elem = dtypeSize(x.dtype());
  const int64_t numRows = x.numElements() / cols;
  for (int64_t r = 0; r < numRows; ++r) {
    const int64_t i = r % rows;
    const int64_t begin = upper ? std::clamp<int64_t>(i + k, 0, cols) : 0;
    const int64_t end = upper ? cols : std::clamp<int64_t>(i + k + 1, 0, cols);
    const std::byte* src = x.raw() + r * cols * elem;
    std::byte* dst = y.raw() + r * cols * elem;
    std::memset(dst, 0, begin * elem);
    std::memcpy(dst + begin * elem, src + begin * elem, (end - begin) * elem);
    std::memset(dst + end * elem, 0, (cols - end) * elem);
  }
}

} // namespace

void registerTriluOp(OpRegistry& registry) {
  OpDef def{.name = "Trilu",
            .opClass = OpClass::Elementwise,
            .minInputs = 1,
            .maxInputs = 2,
            .attributes = {{"upper", AttrKind::Int}},
            .infer = inferTrilu,
            .kernel = triluKernel,
            .flops = flopsPerOutputElement()};
  registry.add(std::move(def));
}

} // namespace tcx::elementwise
