// Fusion rule 4 (fusion/FusionPass.h): the BN-ReLU a float pointwise
// convolution alone reads joins the convolution's kernel; not where another
// kernel reads it too, not before a 3x3 (its padding), not when a statistic
// is computed. And the concatenation it reads, stored in place by VTC, is
// one piece read whole (index/MappingFunction.h remapSources), a strided view.
#include "fusion/FusionPass.h"
#include "ops/GraphBuilder.h"
#include "plan/PlanLowering.h"
#include "plan/StridedView.h"
#include "vt/Vtog.h"

#include <catch2/catch.hpp>

#include <set>

using namespace tcx;

namespace {

using Ints = std::vector<int64_t>;

struct Layer {
  bool sharedActivation = false; // the BN-ReLU is also a graph output's operand
  bool window = false;           // a 3x3 with padding instead of the 1x1
  bool computedScale = false;    // BN's scale is an Exp of a graph input
};

Graph denseLayer(const Layer& layer) {
  GraphBuilder b("dense_layer");
  Value* x = b.input("x", DType::F32, {2, 16, 8, 8});
  Value* y1 = b.op("Conv", {x, b.input("w1", DType::F32, {16, 16, 1, 1})});
  Value* y2 = b.op("Conv", {x, b.input("w2", DType::F32, {8, 16, 1, 1})});
  // As DenseNet's: this layer's features, and the block's, which a later layer adds to.
  Value* features = b.op("Concat", {y1, y2}, attrs({{"axis", int64_t{1}}}), "features");
  b.output(b.op("Concat", {y1, y2, b.input("y3", DType::F32, {2, 4, 8, 8})}, attrs({{"axis", int64_t{1}}}), "block"));
  std::vector<Value*> bn{features};
  for (const char* name : {"scale", "bias", "mean", "var"}) bn.push_back(b.input(name, DType::F32, {24}));
  if (layer.computedScale) bn[1] = b.op("Exp", {bn[1]});
  Value* act = b.op("Relu", {b.op("BatchNormalization", bn)});
  const int64_t k = layer.window ? 3 : 1;
  b.output(b.op("Conv", {act, b.input("w", DType::F32, {32, 24, k, k})},
                layer.window ? attrs({{"pads", Ints{1, 1, 1, 1}}}) : AttrMap{}, "layer"));
  if (layer.sharedActivation) b.output(b.op("Sigmoid", {act}));
  return b.finish();
}

// "BatchNormalization+Relu+Conv": the ops of the layer's convolution's kernel.
std::string lastConvKernel(const Graph& g) { return fuseOperators(g).kernelOf(g.findNode("layer")).opSummary(); }

} // namespace

TEST_CASE("a pointwise convolution takes the BN-ReLU only it reads as its prologue", "[vt][fusion]") {
  const Graph g = denseLayer({});
  CHECK(lastConvKernel(g) == "BatchNormalization+Relu+Conv");
  CHECK(lastConvKernel(denseLayer({.sharedActivation = true})) == "Conv");
  CHECK(lastConvKernel(denseLayer({.window = true})) == "Conv");
  CHECK(lastConvKernel(denseLayer({.computedScale = true})) == "Conv");

  INFO("the layer's features, virtual over the parts both stored into the block's, are one strided view");
  const KernelGraph kernels = fuseOperators(g);
  const Vtog vtog = buildVtog(kernels);
  const Value* features = g.findNode("features")->output(0);
  const Value* block = g.findNode("block")->output(0);
  std::set<int> chosen;
  for (const VtogEdge& e : vtog.edges())
    if ((e.direction == EdgeDirection::InputOverOutput && e.to == block) ||
        (e.direction == EdgeDirection::OutputOverInput && e.from == features))
      chosen.insert(e.id);
  const PointsToGraph inPlace(vtog, chosen);
  REQUIRE(inPlace.valid());
  const ExecPlan plan = lowerToPlan(kernels, inPlace);
  const auto conv = std::ranges::find_if(plan.kernels, [](const PlanKernel& k) {
    return k.fused->kind == KernelKind::Conv && k.fused->nodes.size() == 3;
  });
  REQUIRE(conv != plan.kernels.end());
  const auto read = std::ranges::find(conv->inputs, features, &TensorAccess::value);
  REQUIRE(read != conv->inputs.end());
  // Its two parts' pieces, one buffer at one offset, are one (MappingFunction::remapSources).
  REQUIRE(read->mapping.pieces().size() == 1);
  CHECK(read->mapping.pieces()[0].where.empty());
  const std::optional<StridedView> view = stridedView(*read);
  REQUIRE(view);
  CHECK(view->strides == Ints{28 * 64, 64, 8, 1});
}
