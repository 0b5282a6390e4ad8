// AveragePool: the mean of the input under each window. Taps in the padding
// count towards the divisor only with count_include_pad, and never those of
// a partial last window (ceil_mode) that hang past the padding.

#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Pooling.h"

namespace tcx::nn {

namespace {

void inferAveragePool(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "X");
  ctx.setOutputType(0, {x.dtype, planPool(x.shape, ctx.attrs()).output});
}

template <typename T> void runAveragePool(KernelContext& ctx) {
  using C = ComputeType<T>;
  const PoolPlan p = planPool(ctx.input(0).shape(), ctx.attrs());
  const bool includePad = ctx.attrs().getInt("count_include_pad", 0) != 0;
  const T* x = ctx.input(0).data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  const Dims3& in = p.inputSize;
  const int64_t inVolume = volume(in);
  forEachWindow(p, [&](int64_t plane, int64_t o, const std::array<TapRange, 3>& w) {
    const T* src = x + plane * inVolume;
    C sum = 0;
    for (int64_t kd = w[0].first; kd < w[0].last; ++kd) {
      const int64_t id = w[0].start + kd * p.dilations[0];
      for (int64_t kh = w[1].first; kh < w[1].last; ++kh) {
        const T* row = src + (id * in[1] + w[1].start + kh * p.dilations[1]) * in[2];
        for (int64_t kw = w[2].first; kw < w[2].last; ++kw)
          sum += static_cast<C>(row[w[2].start + kw * p.dilations[2]]);
      }
    }
    int64_t count = 1;
    for (int d = 0; d < 3; ++d)
      count *= includePad
                   ? tapRange(w[d].start, p.kernel[d], p.dilations[d], -p.padsBegin[d], in[d] + p.padsEnd[d]).size()
                   : w[d].size();
    // A window entirely in the padding averages nothing: NaN, as 0 / 0.
    y[o] = static_cast<T>(sum / static_cast<C>(count));
  });
}

} // namespace

OpDef averagePoolOp() {
  OpDef def;
  def.name = "AveragePool";
  def.opClass = OpClass::Pooling;
  def.flops = poolFlops;
  def.attributes = poolAttrSpecs();
  def.attributes.push_back({"count_include_pad", AttrKind::Int});
  def.infer = inferAveragePool;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runAveragePool<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
