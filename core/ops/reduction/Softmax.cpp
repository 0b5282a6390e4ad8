// Softmax and LogSoftmax in their opset 13 form: normalised along `axis`
// alone (older opsets flattened every axis from `axis` on).

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/VectorMath.h"
#include "ops/reduction/ReduceDriver.h"
#include "ops/reduction/Reducers.h"
#include "ops/reduction/ReductionOps.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tcx::reduction {
namespace {

enum class Form { Softmax, LogSoftmax };

// Calls f(i, j) for every element i = k * inner + j of an [n, inner] block,
// with the loop along contiguous memory innermost: over k when the block is
// a single column, over j otherwise.
template <typename F> void forEachElement(int64_t n, int64_t inner, F&& f) {
  if (inner == 1) {
    for (int64_t i = 0; i < n; ++i) f(i, 0);
    return;
  }
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < inner; ++j) f(k * inner + j, j);
}

// Normalises each column of every [n, inner] block. Subtracting the column
// maximum first keeps exp from overflowing: softmax(x) = softmax(x - max x).
// The column maxima and sums are reductions over the block's first axis and
// run on the reduction driver.
template <Form F, typename T> void softmax(const T* x, T* y, const AxisSplit& split) {
  using C = ComputeType<T>;
  using ColumnMax = Reduction<T, Identity, Max, Keep>;
  using ColumnSum = Reduction<C, Identity, Add, Keep>;
  const int64_t n = split.n, inner = split.inner, block = n * inner;
  const ReducePlan columns({n, inner}, {true, false});
  std::vector<C> max(inner), sum(inner), exps(block);
  for (int64_t o = 0; o < split.outer; ++o, x += block, y += block) {
    std::fill(max.begin(), max.end(), ColumnMax::init());
    foldInto<ColumnMax>(x, columns, max.data());
    forEachElement(n, inner,
                   [&](int64_t i, int64_t j) { exps[i] = elementwise::vmath::exp(static_cast<C>(x[i]) - max[j]); });
    std::fill(sum.begin(), sum.end(), ColumnSum::init());
    foldInto<ColumnSum>(exps.data(), columns, sum.data());
    if constexpr (F == Form::Softmax) {
      for (C& s : sum) s = C(1) / s;
      forEachElement(n, inner, [&](int64_t i, int64_t j) { y[i] = static_cast<T>(exps[i] * sum[j]); });
    } else {
      // log softmax(x) = (x - max) - log(sum exp(x - max)); x - max is exact
      // for large x where x - (max + log sum) would round.
      for (C& s : sum) s = std::log(s);
      forEachElement(n, inner,
                     [&](int64_t i, int64_t j) { y[i] = static_cast<T>((static_cast<C>(x[i]) - max[j]) - sum[j]); });
    }
  }
}

template <Form F> OpDef softmaxOp(const char* name) {
  OpDef def;
  def.name = name;
  def.opClass = OpClass::Reduction;
  def.fusionRole = F == Form::Softmax ? FusionRole::Softmax : FusionRole::LogSoftmax;
  // Per element: the maximum, x - max and its exponential, the sum, then
  // one product (Softmax) or two differences (LogSoftmax).
  def.flops = flopsPerInputElement(F == Form::Softmax ? 5 : 6);
  def.attributes = {{"axis", AttrKind::Int}};
  def.infer = inferAlongAxis;
  def.kernel = [](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    AxisSplit split(in.shape(), checkedAxis(ctx.attrs().getInt("axis", -1), in.rank()));
    dispatchIn<DTypeSet::Float>(in.dtype(), [&]<typename T>() {
      softmax<F>(in.data<T>().data(), ctx.output(0).data<T>().data(), split);
    });
  };
  return def;
}

} // namespace

void registerSoftmaxOps(OpRegistry& registry) {
  registry.add(softmaxOp<Form::Softmax>("Softmax"));
  registry.add(softmaxOp<Form::LogSoftmax>("LogSoftmax"));
}

} // namespace tcx::reduction
