// The computation-graph view: scope and kernel groups, collapse and expand,
// edges re-targeted to collapsed groups.
#include "ViewSamples.h"
#include "ops/OpDef.h"

#include "fusion/FusionPass.h"
#include "view/ComputationGraphView.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::view;

namespace {
size_t countStyle(const DisplayGraph& g, NodeStyle style) {
  return std::count_if(g.nodes.begin(), g.nodes.end(), [&](const DisplayNode& n) { return n.style == style; });
}
} // namespace

TEST_CASE("scope groups follow the export's name scopes", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama());
  GroupTree tree = scopeTree(g);
  const int model = tree.find({ItemKind::Group, "/model"});
  const int attn = tree.find({ItemKind::Group, "/model/layers.0/self_attn"});
  REQUIRE(model >= 0);
  REQUIRE(attn >= 0);
  CHECK(tree.groups()[model].totalOps == g.numNodes());
  CHECK(tree.groups()[attn].depth == 2);
  CHECK(tree.groupOf(g.findNode("/model/layers.0/self_attn/k_cache/ScatterND")) ==
        tree.find({ItemKind::Group, "/model/layers.0/self_attn/k_cache"}));
  CHECK(tree.ungroupedOps() == 0);
}

TEST_CASE("a fully expanded graph draws every op, data-movement ops marked", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama());
  GroupTree tree = scopeTree(g);
  DisplayGraph d = buildComputationGraph(g, tree, allGroups(tree));
  CHECK(countStyle(d, NodeStyle::CollapsedGroup) == 0);
  CHECK(d.clusters.size() == tree.groups().size());
  size_t movement = 0;
  for (const Node* n : g.nodes()) {
    auto i = d.findNode({ItemKind::Node, n->name()});
    REQUIRE(i);
    CHECK(d.nodes[*i].style == (n->op().isDataMovement() ? NodeStyle::DataMovementOp : NodeStyle::Op));
    CHECK(d.nodes[*i].opType == n->opType());
    movement += n->op().isDataMovement();
  }
  CHECK(countStyle(d, NodeStyle::DataMovementOp) == movement);
  CHECK(countStyle(d, NodeStyle::GraphInput) == 5); // x, w_qkv, k_cache, v_cache, w_o
  CHECK(countStyle(d, NodeStyle::GraphOutput) == 3);
  // The default shows a one-layer model whole.
  CHECK(defaultExpansion(tree) == allGroups(tree));
}

TEST_CASE("collapsed layers are single nodes with edges re-targeted to them", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama(3));
  GroupTree tree = scopeTree(g);
  DisplayGraph d = buildComputationGraph(g, tree, {{ItemKind::Group, "/model"}});
  // layers.0-2 and the final norm; the weights, caches and outputs each
  // touch one layer only and are folded into it.
  REQUIRE(d.nodes.size() == 4);
  CHECK(countStyle(d, NodeStyle::CollapsedGroup) == 4);
  REQUIRE(d.clusters.size() == 1);
  const size_t layer0 = *d.findNode({ItemKind::Group, "/model/layers.0"});
  const size_t layer1 = *d.findNode({ItemKind::Group, "/model/layers.1"});
  CHECK(d.nodes[layer0].label.find("47 ops") != std::string::npos);
  REQUIRE(d.edges.size() == 3);
  CHECK(d.edges[0].from == layer0);
  CHECK(d.edges[0].to == layer1);
  CHECK(d.edges[0].ref == ItemRef{ItemKind::Value, g.findNode("/model/layers.0/Add_1")->output(0)->name()});
  CHECK(d.drawnAs({ItemKind::Node, "/model/layers.1/self_attn/Split"}) == ItemRef{ItemKind::Group, "/model/layers.1"});
  CHECK(d.drawnAs({ItemKind::Value, "layers.2.k_cache"}) == ItemRef{ItemKind::Group, "/model/layers.2"});

  SECTION("expanding one layer draws its scopes and keeps the others collapsed") {
    DisplayGraph e = buildComputationGraph(g, tree, {{ItemKind::Group, "/model"}, {ItemKind::Group, "/model/layers.1"}});
    CHECK(e.clusters.size() == 2);
    CHECK(e.findNode({ItemKind::Group, "/model/layers.1/self_attn"}));
    CHECK_FALSE(e.findNode({ItemKind::Group, "/model/layers.1"}));
    CHECK(e.nodes.size() > d.nodes.size());
  }
}

TEST_CASE("a 1,000-op model opens as its layers", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama(22));
  REQUIRE(g.numNodes() >= 1000);
  GroupTree tree = scopeTree(g);
  std::set<ItemRef> expanded = defaultExpansion(tree);
  CHECK(expanded.count({ItemKind::Group, "/model"}));
  CHECK_FALSE(expanded.count({ItemKind::Group, "/model/layers.0"}));
  DisplayGraph d = buildComputationGraph(g, tree, expanded);
  CHECK(d.nodes.size() == 23);
}

TEST_CASE("kernel groups are the fused kernels", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama());
  KernelGraph kernels = fuseOperators(g);
  GroupTree tree = kernelTree(kernels);
  size_t fused = 0;
  for (const FusedKernel& k : kernels.kernels()) fused += k.nodes.size() > 1;
  REQUIRE(tree.groups().size() == fused);
  DisplayGraph d = buildComputationGraph(g, tree, allGroups(tree));
  REQUIRE(d.clusters.size() == fused);
  for (const DisplayCluster& c : d.clusters) CHECK(c.kind == ClusterKind::Kernel);
  DisplayGraph collapsed = buildComputationGraph(g, tree, {});
  CHECK(countStyle(collapsed, NodeStyle::CollapsedGroup) == fused);
}
