// Linked selection without Qt: how an item finds its plan kernel, its VTOG
// edges, its stand-in in a view that does not draw it, and its heat.
#include "ViewSamples.h"

#include "view/ComputationGraphView.h"
#include "view/GroupTree.h"
#include "view/ItemLinks.h"
#include "view/LatencyHeat.h"
#include "view/VtogView.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::view;

TEST_CASE("an op, its output and its kernel find the same plan kernel", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  const ExecPlan& plan = s->optimizedPlan();
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const PlanKernel& k = plan.kernels[i];
    CHECK(planKernelOf(plan, kernelRef(k)) == i);
    for (const Node* n : k.fused->nodes) {
      CHECK(planKernelOf(plan, {ItemKind::Node, n->name()}) == i);
      for (const Value* v : n->outputs()) CHECK(planKernelOf(plan, {ItemKind::Value, v->name()}) == i);
    }
  }
  // Graph inputs and the data-movement ops the strategy eliminated have no kernel.
  CHECK_FALSE(planKernelOf(plan, {ItemKind::Value, "k_cache"}));
  REQUIRE_FALSE(plan.eliminated.empty());
  CHECK_FALSE(planKernelOf(plan, {ItemKind::Node, plan.eliminated.front()->name()}));
}

TEST_CASE("VTOG edges of an edge, an op and a tensor", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  const Vtog& vtog = s->vtog();
  for (const VtogEdge& e : vtog.edges()) {
    CHECK(edgeIdOf(vtogEdgeRef(e.id)) == e.id);
    CHECK(vtogEdgesOf(vtog, vtogEdgeRef(e.id)) == std::vector<int>{e.id});
    const std::vector<int> ofOp = vtogEdgesOf(vtog, {ItemKind::Node, e.op->name()});
    CHECK(std::count(ofOp.begin(), ofOp.end(), e.id) == 1);
    for (const Value* end : {e.from, e.to}) {
      const std::vector<int> ofTensor = vtogEdgesOf(vtog, {ItemKind::Value, end->name()});
      CHECK(std::count(ofTensor.begin(), ofTensor.end(), e.id) == 1);
    }
  }
  CHECK_FALSE(edgeIdOf({ItemKind::Edge, "e"}));
  CHECK_FALSE(edgeIdOf({ItemKind::Node, "e3"}));
  CHECK(vtogEdgesOf(vtog, {ItemKind::Edge, "e100000"}).empty());
}

TEST_CASE("a selection shows in a view that does not draw it through a stand-in", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  const DisplayGraph vtogView = buildVtogGraph(s->vtog());
  const VtogEdge& edge = s->vtog().edges().front();
  // The VTOG does not draw ops: an op stands in as one of its edges.
  const std::optional<ItemRef> forOp = counterpartIn(vtogView, *s, {ItemKind::Node, edge.op->name()});
  REQUIRE(forOp);
  CHECK(forOp->kind == ItemKind::Edge);
  CHECK(s->vtog().edge(*edgeIdOf(*forOp)).op == edge.op);
  // The computation graph does not draw VTOG edges: an edge stands in as its op.
  const GroupTree scopes = scopeTree(s->graph());
  const DisplayGraph graphView = buildComputationGraph(s->graph(), scopes, allGroups(scopes));
  CHECK(counterpartIn(graphView, *s, vtogEdgeRef(edge.id)) == ItemRef{ItemKind::Node, edge.op->name()});
}

TEST_CASE("heat is each kernel's share of the slowest, on the kernel and its ops", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  const ExecPlan& plan = s->optimizedPlan();
  const PlanLatency& latency = s->optimizedLatency();
  const std::map<ItemRef, double> heat = kernelHeat(plan, latency);
  double slowest = 0;
  for (const KernelEstimate& k : latency.perKernel) slowest = std::max(slowest, k.seconds);
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const double expected = latency.perKernel[i].seconds / slowest;
    CHECK(heat.at(kernelRef(plan.kernels[i])) == Approx(expected));
    for (const Node* n : plan.kernels[i].fused->nodes) CHECK(heat.at({ItemKind::Node, n->name()}) == Approx(expected));
  }
  CHECK(std::count_if(heat.begin(), heat.end(), [](const auto& h) { return h.second == 1.0; }) >= 1);
}
