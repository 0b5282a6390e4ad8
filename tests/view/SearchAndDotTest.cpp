// Search over a view, collapsed groups included, and the DOT writer's
// output read back by Graphviz's own parser.
#include "ViewSamples.h"

#include "view/ComputationGraphView.h"
#include "view/GraphSearch.h"
#include "view/VtogView.h"

#include <catch2/catch.hpp>
#include <graphviz/cgraph.h>
#include <sstream>

using namespace tcx;
using namespace tcx::view;

TEST_CASE("search by name, op type and regex", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama());
  GroupTree tree = scopeTree(g);
  DisplayGraph d = buildComputationGraph(g, tree, allGroups(tree));

  std::vector<ItemRef> transposes = search(d, "transpose", SearchMode::OpType);
  CHECK(transposes.size() == 4);
  for (const ItemRef& r : transposes) CHECK(g.findNode(r.name)->opType() == "Transpose");

  std::vector<ItemRef> scatter = search(d, "k_CACHE/scatter", SearchMode::Substring);
  // The op, then the tensor it produces (named after it), drawn as an edge.
  REQUIRE(scatter.size() == 2);
  CHECK(scatter[0] == ItemRef{ItemKind::Node, "/model/layers.0/self_attn/k_cache/ScatterND"});
  CHECK(scatter[1] == ItemRef{ItemKind::Value, g.findNode(scatter[0].name)->output(0)->name()});

  std::vector<ItemRef> matmuls = search(d, R"(/MatMul(_1)?$)", SearchMode::Regex);
  // qkv_proj, scores, probs x v, o_proj, and the tensors named after them.
  CHECK(std::count_if(matmuls.begin(), matmuls.end(), [](const ItemRef& r) { return r.kind == ItemKind::Node; }) == 4);
  CHECK(matmuls.size() == 8);
  CHECK_THROWS_AS(search(d, "(", SearchMode::Regex), Error);

  SECTION("matches inside a collapsed group are found, and shown as the group") {
    DisplayGraph collapsed = buildComputationGraph(g, tree, {});
    std::vector<ItemRef> found = search(collapsed, "Transpose", SearchMode::OpType);
    CHECK(found == transposes);
    CHECK(collapsed.drawnAs(found[0]) == ItemRef{ItemKind::Group, "/model"});
  }
}

TEST_CASE("search finds VTOG edges by name", "[view]") {
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  DisplayGraph d = buildVtogGraph(s->vtog());
  CHECK(search(d, "^e1$", SearchMode::Regex) == std::vector<ItemRef>{vtogEdgeRef(1)});
}

namespace {

// Graphviz parses the DOT: as many nodes, edges and clusters as the view.
void requireParsesBack(const DisplayGraph& d) {
  std::ostringstream dot;
  writeDot(d, dot);
  Agraph_t* g = agmemread(dot.str().c_str());
  REQUIRE(g != nullptr);
  CHECK(static_cast<size_t>(agnnodes(g)) == d.nodes.size());
  CHECK(static_cast<size_t>(agnedges(g)) == d.edges.size());
  size_t clusters = 0;
  auto count = [&](auto&& self, Agraph_t* parent) -> void {
    for (Agraph_t* sub = agfstsubg(parent); sub; sub = agnxtsubg(sub)) {
      ++clusters;
      self(self, sub);
    }
  };
  count(count, g);
  CHECK(clusters == d.clusters.size());
  for (const DisplayNode& n : d.nodes) {
    Agnode_t* node = agnode(g, const_cast<char*>(n.ref.key().c_str()), 0);
    REQUIRE(node != nullptr);
    std::string tooltip = n.tooltip; // DOT keeps "\n" escapes for the renderer
    for (size_t at = tooltip.find('\n'); at != std::string::npos; at = tooltip.find('\n', at)) tooltip.replace(at, 1, "\\n");
    CHECK(agget(node, const_cast<char*>("tooltip")) == tooltip);
  }
  agclose(g);
}

} // namespace

TEST_CASE("DOT output parses back with every node, edge and cluster", "[view]") {
  Graph g = samples::buildLlama3Decode(testing::smallLlama(2));
  GroupTree tree = scopeTree(g);
  requireParsesBack(buildComputationGraph(g, tree, allGroups(tree)));
  requireParsesBack(buildComputationGraph(g, tree, defaultExpansion(tree, 40)));
  auto s = testing::selectedSession(samples::buildLlama3Decode(testing::smallLlama()));
  requireParsesBack(buildVtogGraph(s->vtog(), vtogAnnotations(*s)));
}
