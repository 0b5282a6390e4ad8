// InstanceNormalization: every (image, channel) plane is normalised to zero
// mean and unit variance over its spatial dimensions, then scaled and
// shifted per channel.

#include "ops/Flops.h"
#include "ops/nn/Common.h"
#include "ops/nn/Normalization.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

namespace tcx::nn {

namespace {

void inferInstanceNorm(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "input");
  TCX_CHECK(x.rank() >= 3, ErrorKind::ShapeInference, "input must have shape [N, C, spatial...], got {}",
            shapeToString(x.shape));
  for (size_t i = 1; i < 3; ++i) {
    const TensorType& t = ctx.inputType(i);
    const char* name = i == 1 ? "scale" : "B";
    TCX_CHECK(t.dtype == x.dtype && t.shape == Shape{x.shape[1]}, ErrorKind::ShapeInference,
              "{} must be {}[{}], got {}", name, dtypeName(x.dtype), x.shape[1], t.toString());
  }
  ctx.setOutputType(0, x);
}

template <typename T> void runInstanceNorm(KernelContext& ctx) {
  using C = ComputeType<T>;
  const Tensor& input = ctx.input(0);
  const int64_t channels = input.shape()[1], planes = input.shape()[0] * channels;
  const int64_t planeSize = numElements({input.shape().begin() + 2, input.shape().end()});
  const double epsilon = ctx.attrs().getFloat("epsilon", 1e-5f);
  const T* x = input.data<T>().data();
  const T* scale = ctx.input(1).data<T>().data();
  const T* bias = ctx.input(2).data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  parallelFor(planes, 4.0 * static_cast<double>(planeSize), [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const T* src = x + plane * planeSize;
      const Moments m = moments(src, planeSize, epsilon);
      const int64_t c = plane % channels;
      const C a = static_cast<C>(static_cast<double>(scale[c]) * m.invStdDev);
      const C b = static_cast<C>(static_cast<double>(bias[c]) - m.mean * static_cast<double>(a));
      T* dst = y + plane * planeSize;
      for (int64_t i = 0; i < planeSize; ++i) dst[i] = static_cast<T>(static_cast<C>(src[i]) * a + b);
    }
  });
}

} // namespace

OpDef instanceNormalizationOp() {
  OpDef def;
  def.name = "InstanceNormalization";
  def.opClass = OpClass::Normalization;
  // Per element: the mean's sum, the variance's difference, square and sum,
  // the normalisation's difference and product, the scale and the bias.
  def.flops = flopsPerInputElement(8);
  def.minInputs = def.maxInputs = 3;
  def.attributes = {{"epsilon", AttrKind::Float}};
  def.infer = inferInstanceNorm;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runInstanceNorm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
