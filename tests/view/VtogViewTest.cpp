// The VTOG and points-to views, conflict sets and strategy differences.
#include "ViewSamples.h"

#include "view/PointsToView.h"
#include "view/VtogView.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::view;

TEST_CASE("VTOG edges carry their type, mapping, contiguity and saving", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  const Vtog& vtog = s->vtog();
  DisplayGraph d = buildVtogGraph(vtog, vtogAnnotations(*s));
  REQUIRE(d.nodes.size() == vtog.nodes().size());
  REQUIRE(d.edges.size() == vtog.edges().size());
  REQUIRE_FALSE(s->greedy().selected.empty());
  for (const VtogEdge& e : vtog.edges()) {
    const DisplayEdge& de = d.edges[e.id];
    CHECK(de.ref == ItemRef{ItemKind::Edge, "e" + std::to_string(e.id)});
    CHECK(de.style == (e.type == OpportunityType::TypeI ? EdgeStyle::TypeI : EdgeStyle::TypeII));
    CHECK(de.chosen == (s->greedy().selected.count(e.id) != 0));
    CHECK(de.label.find(e.op->opType()) != std::string::npos);
    CHECK(d.nodes[de.from].ref.name == e.from->name());
    if (de.chosen) CHECK(de.label.find("estimated (h100-sxm)") != std::string::npos);
  }
  CHECK(d.nodes[*d.findNode({ItemKind::Value, "k_cache"})].style == NodeStyle::GraphInput);
}

TEST_CASE("conflict sets are the overlapping edges out of one tensor", "[view]") {
  size_t nonEmpty = 0;
  for (auto& [name, graph] : samples::reducedSamples()) {
    auto s = testing::selectedSession(std::move(graph));
    const Vtog& vtog = s->vtog();
    for (const VtogEdge& e : vtog.edges()) {
      std::vector<ItemRef> set = conflictSetOf(vtog, e.id);
      nonEmpty += !set.empty();
      for (int other : vtog.outgoing(e.from)) {
        const bool listed = std::count(set.begin(), set.end(), vtogEdgeRef(other)) != 0;
        CHECK(listed == (other != e.id && vtog.conflict(e.id, other)));
      }
    }
  }
  CHECK(nonEmpty > 0);
}

TEST_CASE("the points-to graph shades physical tensors and points virtual ones", "[view]") {
  auto s = testing::selectedSession(samples::buildAttention("gqa", {1, 4, 2, 8, 3, 16, DType::F16}));
  const PointsToGraph& strategy = s->strategy();
  DisplayGraph d = buildPointsToGraph(strategy);
  REQUIRE(d.edges.size() == strategy.selected().size());
  size_t virtualCount = 0;
  for (const Value* v : s->vtog().nodes()) {
    const DisplayNode& n = d.nodes[*d.findNode({ItemKind::Value, v->name()})];
    CHECK(n.style == (strategy.isVirtual(v) ? NodeStyle::VirtualTensor : NodeStyle::PhysicalTensor));
    if (strategy.isVirtual(v)) CHECK(n.tooltip.find("storage: ") != std::string::npos);
    virtualCount += strategy.isVirtual(v);
  }
  CHECK(virtualCount > 0);
  for (const DisplayEdge& e : d.edges) {
    CHECK(e.style == EdgeStyle::PointsTo);
    CHECK(d.nodes[e.from].style == NodeStyle::VirtualTensor);
  }
}

TEST_CASE("strategy differences list the edges and tensors that changed", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  PointsToGraph none(s->vtog(), {});
  std::vector<ItemRef> diff = strategyDifferences(s->strategy(), none);
  for (int e : s->greedy().selected) CHECK(std::count(diff.begin(), diff.end(), vtogEdgeRef(e)) == 1);
  for (const Value* v : s->vtog().nodes())
    CHECK(std::count(diff.begin(), diff.end(), ItemRef{ItemKind::Value, v->name()}) == (s->strategy().isVirtual(v) ? 1 : 0));
  CHECK(strategyDifferences(s->strategy(), s->strategy()).empty());

  std::vector<ItemRef> plans = strategyDifferences(s->baselinePlan(), s->optimizedPlan());
  REQUIRE(plans.size() == s->optimizedPlan().eliminated.size());
  for (const ItemRef& r : plans) CHECK(r.kind == ItemKind::Node);
}
