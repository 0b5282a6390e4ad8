// Pad: grows (or, with negative pads, crops) each axis. Unlike the strided
// views, the map from output to input indices is not affine near the edges
// (it clamps, reflects or wraps), but it is separable: each output index
// along an axis reads one input index along that axis, independently of the
// other axes. The kernel tabulates that map per axis and copies the interior
// of each row, where it is the identity, with memcpy.

#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/Pad.h"
#include "ops/movement/StridedCopy.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace tcx {

PadMode padMode(const AttrMap& attrs) {
  std::string mode = attrs.getString("mode", "constant");
  if (mode == "constant") return PadMode::Constant;
  if (mode == "reflect") return PadMode::Reflect;
  if (mode == "edge") return PadMode::Edge;
  if (mode == "wrap") return PadMode::Wrap;
  raise(ErrorKind::InvalidModel, "unknown pad mode '{}'", mode);
}

AxisPad::AxisPad(int64_t dim, int64_t begin, int64_t end)
    : cropBegin(std::max<int64_t>(-begin, 0)), kept(dim - cropBegin - std::max<int64_t>(-end, 0)),
      before(std::max<int64_t>(begin, 0)), size(dim + begin + end) {
  TCX_CHECK(kept >= 0 && size >= 0, ErrorKind::ShapeInference, "pads {} and {} crop more than the axis size {}", begin,
            end, dim);
}

int64_t AxisPad::source(int64_t o, PadMode mode) const {
  const int64_t j = o - before; // index into the kept window
  if (j >= 0 && j < kept) return cropBegin + j;
  switch (mode) {
  case PadMode::Constant: return -1;
  case PadMode::Edge: return cropBegin + std::clamp<int64_t>(j, 0, kept - 1);
  case PadMode::Wrap: return cropBegin + (j % kept + kept) % kept;
  case PadMode::Reflect: {
    // Mirrored about the first and last elements: periodic with 2*(kept-1).
    if (kept == 1) return cropBegin;
    const int64_t period = 2 * (kept - 1);
    const int64_t r = (j % period + period) % period;
    return cropBegin + (r < kept ? r : period - r);
  }
  }
  return -1;
}

std::vector<AxisPad> axisPads(const Shape& in, const Tensor& padsValue, const Tensor* axesValue, PadMode mode) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> pads = intList(padsValue, "pads");
  std::vector<int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  if (axesValue) axes = normalizeAxes(intList(*axesValue, "axes"), rank);
  TCX_CHECK(pads.size() == 2 * axes.size(), ErrorKind::ShapeInference, "{} pads for {} axes", pads.size(),
            axes.size());
  std::vector<int64_t> begin(rank, 0), end(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    begin[axes[i]] = pads[i];
    end[axes[i]] = pads[axes.size() + i];
  }
  std::vector<AxisPad> result;
  for (int64_t d = 0; d < rank; ++d) {
    const AxisPad& pad = result.emplace_back(in[d], begin[d], end[d]);
    TCX_CHECK(mode == PadMode::Constant || pad.kept > 0 || pad.size == 0, ErrorKind::ShapeInference,
              "cannot pad an empty axis except with a constant");
  }
  return result;
}

namespace {

void inferPad(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  // The constant's value may be known only at run time: its type is all the output's depends on.
  if (ctx.hasInput(2)) {
    const TensorType& value = ctx.inputType(2);
    TCX_CHECK(value.dtype == data.dtype && value.numElements() == 1, ErrorKind::ShapeInference,
              "constant_value must be a single {} value, got {}", dtypeName(data.dtype), value.toString());
  }
  Shape out;
  for (const AxisPad& pad :
       axisPads(data.shape, ctx.requireInputValue(1, "pads"), optionalValue(ctx, 3, "axes"), padMode(ctx.attrs())))
    out.push_back(pad.size);
  ctx.setOutputType(0, {data.dtype, out});
}

template <typename U>
void padRows(const U* src, U* dst, const std::vector<AxisPad>& pads, const Shape& inShape, PadMode mode, U fill) {
  // sources[d][o]: the element offset that output index o of axis d adds, or -1 for the constant.
  std::vector<int64_t> inStrides = contiguousStrides(inShape);
  std::vector<std::vector<int64_t>> sources(pads.size());
  for (size_t d = 0; d < pads.size(); ++d)
    for (int64_t o = 0; o < pads[d].size; ++o) {
      const int64_t s = pads[d].source(o, mode);
      sources[d].push_back(s < 0 ? -1 : s * inStrides[d]);
    }

  const AxisPad& inner = pads.back();
  const std::vector<int64_t>& innerSources = sources.back();
  auto copyEdge = [&](U* row, int64_t base, int64_t from, int64_t to) {
    for (int64_t o = from; o < to; ++o) row[o] = innerSources[o] < 0 ? fill : src[base + innerSources[o]];
  };
  // Row by row over the outer axes, like an odometer.
  std::vector<int64_t> index(pads.size() - 1, 0);
  for (U* row = dst;; row += inner.size) {
    int64_t base = 0;
    for (size_t d = 0; d < index.size() && base >= 0; ++d) {
      const int64_t s = sources[d][index[d]];
      base = s < 0 ? -1 : base + s;
    }
    if (base < 0) {
      std::fill_n(row, inner.size, fill);
    } else {
      copyEdge(row, base, 0, inner.before);
      std::memcpy(row + inner.before, src + base + inner.cropBegin, static_cast<size_t>(inner.kept) * sizeof(U));
      copyEdge(row, base, inner.before + inner.kept, inner.size);
    }
    size_t d = index.size();
    for (; d > 0; --d) {
      if (++index[d - 1] < pads[d - 1].size) break;
      index[d - 1] = 0;
    }
    if (d == 0) return;
  }
}

void runPad(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  Tensor& out = ctx.output(0);
  const PadMode mode = padMode(ctx.attrs());
  std::vector<AxisPad> pads = axisPads(data.shape(), ctx.input(1), optionalValue(ctx, 3), mode);
  if (out.numElements() == 0) return;
  if (data.rank() == 0) {
    copyAllElements(data, out);
    return;
  }
  const Tensor* constant = optionalValue(ctx, 2);
  dispatchElementSize(dtypeSize(data.dtype()), [&]<typename U>() {
    U fill = 0;
    if (constant) std::memcpy(&fill, constant->raw(), sizeof(U));
    padRows(reinterpret_cast<const U*>(data.raw()), reinterpret_cast<U*>(out.raw()), pads, data.shape(), mode, fill);
  });
}

} // namespace

void registerPadOp(OpRegistry& registry) {
  registry.add({.name = "Pad",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 4,
                .attributes = {{"mode", AttrKind::String}},
                .infer = inferPad,
                .kernel = runPad,
                .movement = padRule});
}

} // namespace tcx
