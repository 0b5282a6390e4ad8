// Softmax and LogSoftmax in their opset 13 form: normalised along `axis`
// alone (older opsets flattened every axis from `axis` on).

#include "ops/OpRegistry.h"
#include "ops/reduction/ReduceDriver.h"
#include "ops/reduction/Reducers.h"
#include "ops/reduction/ReductionOps.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

namespace tcx::reduction {
namespace {

enum class Form { Softmax, LogSoftmax };

// exp(x) for x <= 0 (or NaN). For float it is written so that the
// vectoriser can inline it, where libm's expf is an opaque call:
// exp(x) = 2^n exp(r) with n = round(x / ln 2), |r| <= ln(2) / 2, and exp(r)
// from Cephes' polynomial (relative error below 2^-22). Results below the
// smallest normal float flush to 0, which no softmax sum can tell from the
// exact value. Forced inline: the vectoriser cannot see into a call.
template <typename C> [[gnu::always_inline]] inline C expNonPositive(C x) {
  if constexpr (!std::is_same_v<C, float>) {
    return std::exp(x);
  } else {
    constexpr float kMin = -87.33654f; // ln of the smallest normal float
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2Hi = 0.693359375f; // ln 2 = kLn2Hi + kLn2Lo; n * kLn2Hi is exact
    constexpr float kLn2Lo = -2.12194440e-4f;
    constexpr float kRound = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
    float c = x > kMin ? (x < 0.0f ? x : 0.0f) : kMin; // also maps NaN into range
    float n = (c * kLog2e + kRound) - kRound;
    float r = (c - n * kLn2Hi) - n * kLn2Lo;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    float scale = std::bit_cast<float>((static_cast<int32_t>(n) + 127) << 23);
    return std::isnan(x) ? x : x < kMin ? 0.0f : p * scale;
  }
}

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
    forEachElement(n, inner, [&](int64_t i, int64_t j) { exps[i] = expNonPositive(static_cast<C>(x[i]) - max[j]); });
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
