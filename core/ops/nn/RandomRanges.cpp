// Where random weights of this family's ops lie (OpDef::randomRange): as
// PyTorch initialises them, so that a real model run on random weights
// keeps its activations near 1 through every layer. Uniform in [-1, 1),
// a 50-layer ResNeXt's logits overflow to inf; a BatchNormalization with a
// negative variance gives NaN.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/Ops.h"

#include <cmath>

namespace tcx::nn {

namespace {

std::optional<RandomRange> fanIn(int64_t fan) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(fan, 1)));
  return RandomRange{-bound, bound};
}

// nn.Linear and nn.Conv*d: weight and bias in +-1/sqrt(fan-in), where the
// fan-in of a convolution weight [C, K/g, k...] is every dimension but the
// first (ConvTranspose's [Cin, Cout/g, k...] too, as PyTorch computes it).
std::optional<RandomRange> convolution(const Node& node, size_t operand) {
  if (operand == 0) return std::nullopt;
  const Shape& w = node.input(1)->type().shape;
  int64_t fan = 1;
  for (size_t d = 1; d < w.size(); ++d) fan *= w[d];
  return fanIn(fan);
}

// The right operand of a matrix product is the weight of the Linear it
// comes from (x @ W^T); its reduction length is the fan-in.
std::optional<RandomRange> matMul(const Node& node, size_t operand) {
  if (operand != 1) return std::nullopt;
  const Shape& a = node.input(0)->type().shape;
  return fanIn(a.empty() ? 1 : a.back());
}

std::optional<RandomRange> gemm(const Node& node, size_t operand) {
  if (operand == 0) return std::nullopt;
  const Shape& a = node.input(0)->type().shape;
  return fanIn(node.attrs().getInt("transA", 0) != 0 ? a[0] : a[1]);
}

// A running variance is positive.
std::optional<RandomRange> batchNormalization(const Node&, size_t operand) {
  if (operand != 4) return std::nullopt;
  return RandomRange{0.5, 1.5};
}

} // namespace

void registerRandomRanges(OpRegistry& registry) {
  registry.edit("MatMul").randomRange = matMul;
  registry.edit("Gemm").randomRange = gemm;
  registry.edit("Conv").randomRange = convolution;
  registry.edit("ConvTranspose").randomRange = convolution;
  registry.edit("BatchNormalization").randomRange = batchNormalization;
}

} // namespace tcx::nn
