// BatchNormalization in inference mode: every channel is normalised with the
// running statistics it is given, Y = (X - mean) / sqrt(var + epsilon) *
// scale + B, folded into one multiply-add per element. Training mode, which
// computes batch statistics and updates the running ones, is not supported.

#include "ir/Graph.h"
#include "ops/Flops.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

#include <array>
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

// Per channel, Y = X * a + b with a = scale / sqrt(var + epsilon) and
// b = B - mean * a, in double and then rounded to C: the CPU kernel and
// inferenceAffine (which BatchNormToAffine turns into a Mul and an Add)
// share them, so the rewritten graph computes what the op does.
template <typename C>
void affineCoefficients(const Node& node, const std::array<const Tensor*, 4>& params, std::vector<C>& a,
                        std::vector<C>& b) {
  const Tensor &scale = *params[0], &bias = *params[1], &mean = *params[2], &var = *params[3];
  const double epsilon = node.attrs().getFloat("epsilon", 1e-5f);
  a.resize(static_cast<size_t>(scale.numElements()));
  b.resize(a.size());
  for (int64_t c = 0; c < scale.numElements(); ++c) {
    const double s = scale.elementAsDouble(c) / std::sqrt(var.elementAsDouble(c) + epsilon);
    a[c] = static_cast<C>(s);
    b[c] = static_cast<C>(bias.elementAsDouble(c) - mean.elementAsDouble(c) * s);
  }
}

template <typename T> void runBatchNorm(KernelContext& ctx) {
  using C = ComputeType<T>;
  const Tensor& input = ctx.input(0);
  const int64_t channels = input.shape()[1];
  const int64_t planeSize = numElements({input.shape().begin() + 2, input.shape().end()});
  std::vector<C> a, b;
  affineCoefficients<C>(ctx.node(), {&ctx.input(1), &ctx.input(2), &ctx.input(3), &ctx.input(4)}, a, b);
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

// The coefficients as tensors of x's dtype, where the statistics are
// constants and that dtype is the kernel's compute type (a 16-bit x is
// computed in float and rounded once; a Mul and an Add would round twice).
std::optional<ChannelAffine> inferenceAffine(const Node& node) {
  std::array<const Tensor*, 4> params{};
  for (size_t i = 0; i < params.size(); ++i) {
    const Value* v = node.input(i + 1);
    if (!v || !v->isConstant()) return std::nullopt;
    params[i] = &v->constant();
  }
  const DType dtype = node.input(0)->type().dtype;
  const Shape channels{params[0]->numElements()};
  auto build = [&]<typename C>() {
    std::vector<C> a, b;
    affineCoefficients<C>(node, params, a, b);
    return ChannelAffine{Tensor::fromVector<C>(channels, a), Tensor::fromVector<C>(channels, b)};
  };
  if (dtype == DType::F32) return build.template operator()<float>();
  if (dtype == DType::F64) return build.template operator()<double>();
  return std::nullopt;
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
  def.inferenceAffine = inferenceAffine;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runBatchNorm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
