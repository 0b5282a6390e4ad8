// ConvTranspose: the gradient of Conv with respect to its input. Per image,
// the GEMM core computes W^T X for every group, giving each input position's
// contribution at every kernel tap (a column matrix); col2im then adds the
// contributions into the output positions the taps land on.

#include "ops/nn/Common.h"
#include "ops/nn/ConvTranspose.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"
#include "ops/nn/Window.h"

#include "ir/Attribute.h"
#include "ir/Graph.h"

namespace tcx::nn {

namespace {

int64_t floorHalf(int64_t v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

} // namespace

ConvTransposePlan planConvTranspose(const Shape& x, const Shape& w, const AttrMap& attrs) {
  const std::vector<int64_t> inSize = spatialDims(x, "X");
  const int64_t rank = static_cast<int64_t>(inSize.size());
  TCX_CHECK(w.size() == x.size(), ErrorKind::ShapeInference, "W {} must have the rank of X {}", shapeToString(w),
            shapeToString(x));
  ConvTransposePlan p;
  p.batch = x[0];
  p.channels = x[1];
  p.group = attrs.getInt("group", 1);
  TCX_CHECK(p.group >= 1, ErrorKind::InvalidModel, "group must be positive, got {}", p.group);
  TCX_CHECK(p.channels % p.group == 0, ErrorKind::ShapeInference, "{} input channels are not divisible by group {}",
            p.channels, p.group);
  TCX_CHECK(w[0] == p.channels, ErrorKind::ShapeInference, "W {} must have {} rows, one per input channel",
            shapeToString(w), p.channels);
  p.filters = w[1] * p.group;

  const WindowAttrs win = readWindowAttrs(attrs, rank, {w.begin() + 2, w.end()});
  std::vector<int64_t> outputPadding = attrs.getInts("output_padding", std::vector<int64_t>(rank, 0));
  TCX_CHECK(static_cast<int64_t>(outputPadding.size()) == rank, ErrorKind::InvalidModel,
            "output_padding has {} values, expected {}", outputPadding.size(), rank);
  const std::optional<std::vector<int64_t>> outputShape = attrs.findInts("output_shape");
  TCX_CHECK(!outputShape || static_cast<int64_t>(outputShape->size()) >= rank, ErrorKind::InvalidModel,
            "output_shape has {} values, expected {}", outputShape ? outputShape->size() : 0, rank);
  std::vector<int64_t> outSize(rank), padsBegin(rank);
  for (int64_t d = 0; d < rank; ++d) {
    TCX_CHECK(outputPadding[d] >= 0, ErrorKind::InvalidModel, "output_padding must be >= 0");
    const int64_t full = win.strides[d] * (inSize[d] - 1) + outputPadding[d] + win.span(d);
    const bool same = win.autoPad == AutoPad::SameUpper || win.autoPad == AutoPad::SameLower;
    if (outputShape || same) {
      // The output size is given (or is the input's times the stride); the
      // padding is whatever makes it so, the odd unit at the end for SAME_UPPER.
      outSize[d] = outputShape ? (*outputShape)[outputShape->size() - rank + d] : inSize[d] * win.strides[d];
      const int64_t total = full - outSize[d];
      padsBegin[d] = win.autoPad == AutoPad::SameUpper ? floorHalf(total) : total - floorHalf(total);
    } else {
      outSize[d] = full - win.pads[d] - win.pads[rank + d];
      padsBegin[d] = win.pads[d];
    }
    TCX_CHECK(outSize[d] >= 0, ErrorKind::ShapeInference, "the output would have negative size {} on spatial axis {}",
              outSize[d], d);
  }
  static_cast<WindowGeometry&>(p) = windowGeometry(win, inSize, outSize, padsBegin);
  p.output = {p.batch, p.filters};
  p.output.insert(p.output.end(), outSize.begin(), outSize.end());
  return p;
}

namespace {

void inferConvTranspose(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  const TensorType& w = ctx.inputType(1);
  FloatTypes::check(x.dtype, "X");
  TCX_CHECK(w.dtype == x.dtype, ErrorKind::ShapeInference, "W is {} but X is {}", dtypeName(w.dtype),
            dtypeName(x.dtype));
  const ConvTransposePlan p = planConvTranspose(x.shape, w.shape, ctx.attrs());
  if (ctx.hasInput(2)) {
    const TensorType& b = ctx.inputType(2);
    TCX_CHECK(b.dtype == x.dtype && b.shape == Shape{p.filters}, ErrorKind::ShapeInference, "B must be {}[{}], got {}",
              dtypeName(x.dtype), p.filters, b.toString());
  }
  ctx.setOutputType(0, {x.dtype, p.output});
}

// Adds the column matrix of one filter ([kernel taps, input positions]) into
// its output plane.
template <typename Acc> void col2im(const ConvTransposePlan& p, const Acc* cols, Acc* out) {
  const Dims3& in = p.inputSize;
  const Dims3& os = p.outputSize;
  const int64_t inVolume = volume(in);
  int64_t tap = 0;
  for (int64_t kd = 0; kd < p.kernel[0]; ++kd)
    for (int64_t kh = 0; kh < p.kernel[1]; ++kh)
      for (int64_t kw = 0; kw < p.kernel[2]; ++kw, ++tap) {
        // The input positions i whose tap lands inside the output:
        // 0 <= i * stride + k * dilation - pad < output size.
        const int64_t k[3] = {kd, kh, kw};
        TapRange r[3];
        for (int d = 0; d < 3; ++d)
          r[d] = tapRange(k[d] * p.dilations[d] - p.padsBegin[d], in[d], p.strides[d], 0, os[d]);
        const Acc* src = cols + tap * inVolume;
        for (int64_t id = r[0].first; id < r[0].last; ++id) {
          const int64_t od = r[0].start + id * p.strides[0];
          for (int64_t ih = r[1].first; ih < r[1].last; ++ih) {
            const int64_t oh = r[1].start + ih * p.strides[1];
            const Acc* row = src + (id * in[1] + ih) * in[2];
            Acc* dst = out + (od * os[1] + oh) * os[2] + r[2].start;
            for (int64_t iw = r[2].first; iw < r[2].last; ++iw) dst[iw * p.strides[2]] += row[iw];
          }
        }
      }
}

template <typename T> void runConvTranspose(KernelContext& ctx) {
  using Acc = GemmAcc<T>;
  const ConvTransposePlan p = planConvTranspose(ctx.input(0).shape(), ctx.input(1).shape(), ctx.attrs());
  const T* x = ctx.input(0).data<T>().data();
  const T* w = ctx.input(1).data<T>().data();
  const int64_t groupChannels = p.channels / p.group, groupFilters = p.filters / p.group;
  const int64_t taps = volume(p.kernel), inVolume = volume(p.inputSize), outVolume = volume(p.outputSize);
  const int64_t rows = groupFilters * taps; // of one group's column matrix

  OutputAccumulator<T> acc(ctx.output(0));
  Acc* y = acc.data();
  if (ctx.hasInput(2)) {
    std::span<const T> bias = ctx.input(2).data<T>();
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t m = 0; m < p.filters; ++m)
        std::fill_n(y + (n * p.filters + m) * outVolume, outVolume, static_cast<Acc>(bias[m]));
  }
  std::vector<Acc> cols(static_cast<size_t>(p.group * rows * inVolume));
  for (int64_t n = 0; n < p.batch; ++n) {
    std::fill(cols.begin(), cols.end(), Acc(0));
    gemm<T>({rows, inVolume, groupChannels}, Acc(1), p.group, [&](int64_t g) {
      // W's group block is [C/group, rows]; the product needs its transpose.
      return GemmOperands<T>{StridedMatrix<T>{w + g * groupChannels * rows, 1, rows},
                             StridedMatrix<T>{x + (n * p.channels + g * groupChannels) * inVolume, inVolume, 1},
                             cols.data() + g * rows * inVolume, inVolume};
    });
    parallelFor(p.filters, static_cast<double>(taps * inVolume), [&](int64_t begin, int64_t end) {
      for (int64_t m = begin; m < end; ++m)
        col2im(p, cols.data() + m * taps * inVolume, y + (n * p.filters + m) * outVolume);
    });
  }
  acc.finish();
}

// W is [C, M/group, k...]: each input element is multiplied into the M/group
// filters of its group at every kernel tap, W's row length, and added into
// the output (padding crops taps, which the count still includes).
double convTransposeFlops(const Node& node) {
  const Shape& w = node.input(1)->type().shape;
  double row = 1;
  for (size_t d = 1; d < w.size(); ++d) row *= static_cast<double>(w[d]);
  return 2 * row * static_cast<double>(node.input(0)->type().numElements());
}

} // namespace

OpDef convTransposeOp() {
  OpDef def;
  def.name = "ConvTranspose";
  def.opClass = OpClass::Contraction;
  def.fusionRole = FusionRole::TransposedConvolution;
  def.flops = convTransposeFlops;
  def.minInputs = 2;
  def.maxInputs = 3;
  def.attributes = windowAttrSpecs();
  def.attributes.push_back({"group", AttrKind::Int});
  def.attributes.push_back({"output_padding", AttrKind::Ints});
  def.attributes.push_back({"output_shape", AttrKind::Ints});
  def.infer = inferConvTranspose;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runConvTranspose<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
