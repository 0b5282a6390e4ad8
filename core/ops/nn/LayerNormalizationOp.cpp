// LayerNormalization: every row of the trailing dimensions from `axis` on is
// normalised to zero mean and unit variance, then scaled and shifted by Scale
// and B (which broadcast to those dimensions). Mean and InvStdDev, when
// asked for, keep the leading dimensions and have size 1 in the others.

#include "ops/Flops.h"
#include "ops/StridedLoop.h"
#include "ops/nn/Common.h"
#include "ops/nn/Normalization.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

namespace tcx::nn {

namespace {

// The ONNX dtype code of float, the only stash type ONNX runtimes implement.
constexpr int64_t kStashFloat = 1;

} // namespace

LayerNormDims layerNormDims(const Shape& x, const AttrMap& attrs) {
  const int64_t rank = static_cast<int64_t>(x.size());
  TCX_CHECK(rank >= 1, ErrorKind::ShapeInference, "X must not be a scalar");
  const int64_t axis = attrs.getInt("axis", -1);
  TCX_CHECK(axis >= -rank && axis < rank, ErrorKind::ShapeInference, "axis {} is out of range for rank {}", axis, rank);
  LayerNormDims d;
  d.axis = axis < 0 ? axis + rank : axis;
  d.normalized.assign(x.begin() + d.axis, x.end());
  d.rows = numElements({x.begin(), x.begin() + d.axis});
  d.statistics = x;
  std::fill(d.statistics.begin() + d.axis, d.statistics.end(), 1);
  return d;
}

namespace {

void inferLayerNorm(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "X");
  const int64_t stash = ctx.attrs().getInt("stash_type", kStashFloat);
  TCX_CHECK(stash == kStashFloat, ErrorKind::Unsupported, "stash_type {} is not supported (only 1, float)", stash);
  const LayerNormDims d = layerNormDims(x.shape, ctx.attrs());
  for (size_t i = 1; i < 3; ++i) {
    if (!ctx.hasInput(i)) continue;
    const TensorType& t = ctx.inputType(i);
    const char* name = i == 1 ? "Scale" : "B";
    TCX_CHECK(t.dtype == x.dtype, ErrorKind::ShapeInference, "{} is {} but X is {}", name, dtypeName(t.dtype),
              dtypeName(x.dtype));
    TCX_CHECK(t.rank() <= static_cast<int64_t>(d.normalized.size()) &&
                  broadcastShapes(t.shape, d.normalized) == d.normalized,
              ErrorKind::ShapeInference, "{} {} does not broadcast to the normalized shape {}", name,
              shapeToString(t.shape), shapeToString(d.normalized));
  }
  ctx.setOutputType(0, x);
  for (size_t i = 1; i < ctx.numOutputs(); ++i) ctx.setOutputType(i, {DType::F32, d.statistics});
}

// `t` broadcast to `shape` and converted to float: Scale and B once per
// kernel call, so the row loop reads them contiguously.
template <typename T> std::vector<float> expandTo(const Tensor& t, const Shape& shape) {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(numElements(shape)));
  const T* src = t.data<T>().data();
  const std::vector<int64_t> strides = broadcastStrides(t.shape(), shape);
  stridedLoop<1>(shape, {strides.data()},
                 [&](const std::array<int64_t, 1>& o) { out.push_back(static_cast<float>(src[o[0]])); });
  return out;
}

template <typename T> void runLayerNorm(KernelContext& ctx) {
  const LayerNormDims d = layerNormDims(ctx.input(0).shape(), ctx.attrs());
  const double epsilon = ctx.attrs().getFloat("epsilon", 1e-5f);
  const int64_t n = numElements(d.normalized);
  const std::vector<float> scale = expandTo<T>(ctx.input(1), d.normalized);
  const std::vector<float> bias =
      ctx.hasInput(2) ? expandTo<T>(ctx.input(2), d.normalized) : std::vector<float>(n, 0.0f);
  const T* x = ctx.input(0).data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  float* mean = ctx.numOutputs() > 1 ? ctx.output(1).data<float>().data() : nullptr;
  float* invStdDev = ctx.numOutputs() > 2 ? ctx.output(2).data<float>().data() : nullptr;
  parallelFor(d.rows, 4.0 * static_cast<double>(n), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* row = x + r * n;
      const Moments m = moments(row, n, epsilon);
      // Stage one rounds to the stash type, as the spec's function body does.
      const float mu = static_cast<float>(m.mean), inv = static_cast<float>(m.invStdDev);
      if (mean) mean[r] = mu;
      if (invStdDev) invStdDev[r] = inv;
      T* out = y + r * n;
      for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<T>((static_cast<float>(row[i]) - mu) * inv * scale[i] + bias[i]);
    }
  });
}

} // namespace

OpDef layerNormalizationOp() {
  OpDef def;
  def.name = "LayerNormalization";
  def.opClass = OpClass::Normalization;
  // Per element: the mean's sum, the variance's difference, square and sum,
  // the normalisation's difference and product, the scale and the bias.
  def.flops = flopsPerInputElement(8);
  def.minInputs = 2;
  def.maxInputs = 3;
  def.maxOutputs = 3;
  def.attributes = {{"axis", AttrKind::Int}, {"epsilon", AttrKind::Float}, {"stash_type", AttrKind::Int}};
  def.infer = inferLayerNorm;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runLayerNorm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
