// Conv: each group's filters [M/group, C/group * kernel volume] times the
// patch matrix of its input channels (implicit im2col) through the GEMM core,
// one product per (image, group).

#include "ir/Graph.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Window.h"

namespace tcx::nn {

namespace {

struct ConvPlan {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t filters = 0;
  int64_t group = 1;
  PatchGeometry patches; // of one group
  Shape output;

  // A 1x1 kernel at unit stride without padding reads the input as it is.
  bool pointwise() const {
    return volume(patches.kernel) == 1 && volume(patches.strides) == 1 && patches.padsBegin == Dims3{0, 0, 0};
  }
};

ConvPlan planConv(const Shape& x, const Shape& w, const AttrMap& attrs) {
  const std::vector<int64_t> inSize = spatialDims(x, "X");
  TCX_CHECK(w.size() == x.size(), ErrorKind::ShapeInference, "W {} must have the rank of X {}", shapeToString(w),
            shapeToString(x));
  ConvPlan p;
  p.batch = x[0];
  p.channels = x[1];
  p.filters = w[0];
  p.group = attrs.getInt("group", 1);
  TCX_CHECK(p.group >= 1, ErrorKind::InvalidModel, "group must be positive, got {}", p.group);
  TCX_CHECK(p.channels % p.group == 0, ErrorKind::ShapeInference, "{} input channels are not divisible by group {}",
            p.channels, p.group);
  TCX_CHECK(w[1] * p.group == p.channels, ErrorKind::ShapeInference,
            "W {} expects {} channels per group, but X has {} channels in {} groups", shapeToString(w), w[1],
            p.channels, p.group);
  TCX_CHECK(p.filters % p.group == 0, ErrorKind::ShapeInference, "{} filters are not divisible by group {}", p.filters,
            p.group);

  const WindowAttrs window = readWindowAttrs(attrs, static_cast<int64_t>(inSize.size()), {w.begin() + 2, w.end()});
  const WindowPlacement place = placeWindow(window, inSize);
  p.patches = {windowGeometry(window, inSize, place.outputSize, place.padsBegin), p.channels / p.group};
  p.output = {p.batch, p.filters};
  p.output.insert(p.output.end(), place.outputSize.begin(), place.outputSize.end());
  return p;
}

void inferConv(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  const TensorType& w = ctx.inputType(1);
  FloatTypes::check(x.dtype, "X");
  TCX_CHECK(w.dtype == x.dtype, ErrorKind::ShapeInference, "W is {} but X is {}", dtypeName(w.dtype),
            dtypeName(x.dtype));
  const ConvPlan p = planConv(x.shape, w.shape, ctx.attrs());
  if (ctx.hasInput(2)) {
    const TensorType& b = ctx.inputType(2);
    TCX_CHECK(b.dtype == x.dtype && b.shape == Shape{p.filters}, ErrorKind::ShapeInference, "B must be {}[{}], got {}",
              dtypeName(x.dtype), p.filters, b.toString());
  }
  ctx.setOutputType(0, {x.dtype, p.output});
}

template <typename T> void runConv(KernelContext& ctx) {
  using Acc = GemmAcc<T>;
  const ConvPlan p = planConv(ctx.input(0).shape(), ctx.input(1).shape(), ctx.attrs());
  const T* x = ctx.input(0).data<T>().data();
  const T* w = ctx.input(1).data<T>().data();
  const int64_t groupChannels = p.patches.channels, groupFilters = p.filters / p.group;
  const int64_t inVolume = volume(p.patches.inputSize), outVolume = p.patches.cols(), rows = p.patches.rows();

  OutputAccumulator<T> acc(ctx.output(0));
  Acc* y = acc.data();
  if (ctx.hasInput(2)) {
    std::span<const T> bias = ctx.input(2).data<T>();
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t m = 0; m < p.filters; ++m) {
        Acc* plane = y + (n * p.filters + m) * outVolume;
        std::fill(plane, plane + outVolume, static_cast<Acc>(bias[m]));
      }
  }
  const bool pointwise = p.pointwise();
  gemm<T>({groupFilters, outVolume, rows}, Acc(1), p.batch * p.group, [&](int64_t i) {
    const int64_t n = i / p.group, g = i % p.group;
    const T* image = x + (n * p.channels + g * groupChannels) * inVolume;
    GemmOperands<T> op;
    op.a = {w + g * groupFilters * rows, rows, 1};
    if (pointwise)
      op.b = StridedMatrix<T>{image, inVolume, 1};
    else
      op.b = PatchMatrix<T>{image, &p.patches};
    op.c = y + (n * p.filters + g * groupFilters) * outVolume;
    op.ldc = outVolume;
    return op;
  });
  acc.finish();
}

// W is [M, C/group, k...]: each output element is a multiply-add over its
// group's C/group input channels and the kernel's taps, W's row length.
double convFlops(const Node& node) {
  const Shape& w = node.input(1)->type().shape;
  double row = 1;
  for (size_t d = 1; d < w.size(); ++d) row *= static_cast<double>(w[d]);
  return 2 * row * static_cast<double>(node.output(0)->type().numElements());
}

} // namespace

OpDef convOp() {
  OpDef def;
  def.name = "Conv";
  def.opClass = OpClass::Contraction;
  def.fusionRole = FusionRole::Convolution;
  def.flops = convFlops;
  def.minInputs = 2;
  def.maxInputs = 3;
  def.attributes = windowAttrSpecs();
  def.attributes.push_back({"group", AttrKind::Int});
  def.infer = inferConv;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runConv<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
