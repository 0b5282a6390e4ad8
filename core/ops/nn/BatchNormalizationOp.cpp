// BatchNormalization in inference mode: every channel is normalised with the
// running statistics it is given, Y = (X - mean) / sqrt(var + epsilon) *
// scale + B, folded into one multiply-add per element. Training mode, which
// computes batch statistics and updates the running ones, is not supported.

#include "ops/Flops.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

#include <cmath>

namespace tcx::nn {

namespace {

constexpr const char* kParamNames[] = {"scale", "B", "input_mean", "input_var"};

void inferBatchNorm(InferContext& ctx) {
  TCX_CHECK(ctx.attrs().getInt("training_mode", 0) == 0, ErrorKind::Unsupported,
            "training_mode is not supported, only inference");
  TCX_CHECK(ctx.numOutputs() == 1, ErrorKind::InvalidModel,
            "running_mean and running_var are outputs of training mode only");
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "X");
  TCX_CHECK(x.rank() >= 2, ErrorKind::ShapeInference, "X must have shape [N, C, ...], got {}", shapeToString(x.shape));
  for (size_t i = 1; i < 5; ++i) {
    const TensorType& t = ctx.inputType(i);
    FloatTypes::check(t.dtype, kParamNames[i - 1]);
    TCX_CHECK(t.shape == Shape{x.shape[1]}, ErrorKind::ShapeInference, "{} must have shape [{}], got {}",
              kParamNames[i - 1], x.shape[1], shapeToString(t.shape));
  }
  ctx.setOutputType(0, x);
}

template <typename T> void runBatchNorm(KernelContext& ctx) {
  using C = ComputeType<T>;
  const Tensor& input = ctx.input(0);
  const int64_t channels = input.shape()[1];
  const int64_t planeSize = numElements({input.shape().begin() + 2, input.shape().end()});
  const double epsilon = ctx.attrs().getFloat("epsilon", 1e-5f);
  // Per channel, Y = X * a + b.
  std::vector<C> a(static_cast<size_t>(channels)), b(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    const double s = ctx.input(1).elementAsDouble(c) / std::sqrt(ctx.input(4).elementAsDouble(c) + epsilon);
    a[c] = static_cast<C>(s);
    b[c] = static_cast<C>(ctx.input(2).elementAsDouble(c) - ctx.input(3).elementAsDouble(c) * s);
  }
  const T* x = input.data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  parallelFor(input.shape()[0] * channels, static_cast<double>(planeSize), [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const C scale = a[plane % channels], shift = b[plane % channels];
      const T* src = x + plane * planeSize;
      T* dst = y + plane * planeSize;
      for (int64_t i = 0; i < planeSize; ++i) dst[i] = static_cast<T>(static_cast<C>(src[i]) * scale + shift);
    }
  });
}

} // namespace

OpDef batchNormalizationOp() {
  OpDef def;
  def.name = "BatchNormalization";
  def.opClass = OpClass::Normalization;
  // Per element, with the statistics given (inference): the difference from
  // the mean, the product with 1/sqrt(var + epsilon), the scale and the bias.
  def.flops = flopsPerInputElement(4);
  def.minInputs = def.maxInputs = 5;
  def.maxOutputs = 3;
  def.attributes = {{"epsilon", AttrKind::Float}, {"momentum", AttrKind::Float}, {"training_mode", AttrKind::Int}};
  def.infer = inferBatchNorm;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runBatchNorm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
