// The CUDA forms of Conv and ConvTranspose: each output element a sum over
// its group's input channels and the window's taps that read the input
// (padding reads zero). The convolution library kernel takes over the
// convolutions it matches (codegen/GemmLowering); this form is the fallback.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/ConvTranspose.h"
#include "ops/nn/CudaForms.h"
#include "ops/nn/CudaWindow.h"
#include "ops/nn/Window.h"

#include <fmt/format.h>

namespace tcx::nn {

namespace {

// The output's spatial index: every dimension after N and C.
std::vector<std::string> spatialIndex(const CudaElementContext& ctx) {
  return {ctx.outIndex.begin() + 2, ctx.outIndex.end()};
}

// out = bias + the sum over channels `_c` of a group (`xChannel` is X's
// channel, `wLead` W's first two indices) and the window's taps inside X.
std::string convolutionCode(const CudaElementContext& ctx, const CudaWindow& w, int64_t groupChannels,
                            const std::string& xChannel, std::vector<std::string> wLead) {
  std::vector<std::string> xIndex{ctx.outIndex[0], xChannel};
  xIndex.insert(xIndex.end(), w.input.begin(), w.input.end());
  wLead.insert(wLead.end(), w.taps.begin(), w.taps.end());
  const bool hasBias = ctx.node.numInputs() > 2 && ctx.node.input(2);
  return fmt::format("{T} _acc = 0;\nfor (Index _c = 0; _c < {C}; ++_c) {loops}{{\n{positions}"
                     "if ({inside}) _acc += {T}({x}) * {T}({w});\n}}\nout = _acc + {T}({bias});\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("C", groupChannels), fmt::arg("loops", w.loops),
                     fmt::arg("positions", w.positions), fmt::arg("inside", w.inside),
                     fmt::arg("x", ctx.operandAt(0, xIndex)), fmt::arg("w", ctx.operandAt(1, wLead)),
                     fmt::arg("bias", hasBias ? ctx.operandAt(2, {ctx.outIndex[1]}) : "0"));
}

// Conv: W is [M, C/group, kernel...]; filter m reads the channels of group
// m / (M/group).
std::string convElement(const CudaElementContext& ctx) {
  const Shape& x = ctx.node.input(0)->type().shape;
  const Shape& w = ctx.node.input(1)->type().shape;
  const std::vector<int64_t> inSize(x.begin() + 2, x.end());
  const WindowAttrs window = readWindowAttrs(ctx.node.attrs(), static_cast<int64_t>(inSize.size()),
                                             std::vector<int64_t>(w.begin() + 2, w.end()));
  const WindowPlacement place = placeWindow(window, inSize);
  const WindowGeometry g = windowGeometry(window, inSize, place.outputSize, place.padsBegin);
  const int64_t group = ctx.node.attrs().getInt("group", 1);
  const int64_t groupChannels = w[1], groupFilters = w[0] / group;
  const std::string& m = ctx.outIndex[1];
  return convolutionCode(ctx, cudaWindow(g, {0, 0, 0}, spatialIndex(ctx), WindowDirection::Forward), groupChannels,
                         fmt::format("{} / {} * {} + _c", m, groupFilters, groupChannels), {m, "_c"});
}

// ConvTranspose: W is [C, M/group, kernel...]; output channel m sums the
// input channels of group m / (M/group), through W's column m % (M/group).
std::string convTransposeElement(const CudaElementContext& ctx) {
  const ConvTransposePlan p =
      planConvTranspose(ctx.node.input(0)->type().shape, ctx.node.input(1)->type().shape, ctx.node.attrs());
  const int64_t groupChannels = p.channels / p.group, groupFilters = p.filters / p.group;
  const std::string& m = ctx.outIndex[1];
  const std::string channel = fmt::format("{} / {} * {} + _c", m, groupFilters, groupChannels);
  return convolutionCode(ctx, cudaWindow(p, {0, 0, 0}, spatialIndex(ctx), WindowDirection::Transposed), groupChannels,
                         channel, {channel, fmt::format("{} % {}", m, groupFilters)});
}

} // namespace

void registerConvolutionCudaForms(OpRegistry& registry) {
  registry.edit("Conv").cudaElement = convElement;
  registry.edit("ConvTranspose").cudaElement = convTransposeElement;
}

} // namespace tcx::nn
