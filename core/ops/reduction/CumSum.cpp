// CumSum: running sums along the axis given by the second input, optionally
// exclusive (each output leaves out its own element) and reversed (summing
// from the end).

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/Common.h"
#include "ops/reduction/ReductionOps.h"

#include <algorithm>
#include <vector>

namespace tcx::reduction {
namespace {

// The columns of each [n, inner] block are summed side by side, so that the
// inner loop is contiguous and vectorises.
template <typename T> void cumSum(const T* x, T* y, const AxisSplit& split, bool exclusive, bool reverse) {
  using A = SumType<T>;
  const int64_t inner = split.inner, block = split.n * inner;
  std::vector<A> running(inner);
  for (int64_t o = 0; o < split.outer; ++o, x += block, y += block) {
    std::fill(running.begin(), running.end(), A(0));
    for (int64_t step = 0; step < split.n; ++step) {
      int64_t k = reverse ? split.n - 1 - step : step;
      const T* xr = x + k * inner;
      T* yr = y + k * inner;
      for (int64_t j = 0; j < inner; ++j) {
        A before = running[j];
        running[j] += static_cast<A>(xr[j]);
        yr[j] = static_cast<T>(exclusive ? before : running[j]);
      }
    }
  }
}

} // namespace

void registerCumSum(OpRegistry& registry) {
  OpDef def;
  def.name = "CumSum";
  def.opClass = OpClass::Reduction;
  def.minInputs = 2;
  def.maxInputs = 2;
  def.attributes = {{"exclusive", AttrKind::Int}, {"reverse", AttrKind::Int}};
  def.flops = flopsPerInputElement(1); // one addition per element
  def.infer = [](InferContext& ctx) {
    const TensorType& in = ctx.inputType(0);
    checkDType<DTypeSet::Numeric>(in.dtype);
    if (const Tensor* axis = ctx.inputValue(1)) cumSumAxis(*axis, in.rank());
    ctx.setOutputType(0, in);
  };
  def.kernel = [](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    AxisSplit split(in.shape(), cumSumAxis(ctx.input(1), in.rank()));
    bool exclusive = ctx.attrs().getInt("exclusive", 0) != 0;
    bool reverse = ctx.attrs().getInt("reverse", 0) != 0;
    dispatchIn<DTypeSet::Numeric>(in.dtype(), [&]<typename T>() {
      cumSum(in.data<T>().data(), ctx.output(0).data<T>().data(), split, exclusive, reverse);
    });
  };
  registry.add(std::move(def));
}

} // namespace tcx::reduction
