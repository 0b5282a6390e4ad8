// view/GraphLayout.h: `dot` for small views, the layered layout for large
// ones; either gives every node a box and every edge a curve from its tail to
// its head.
#include "view/GraphLayout.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tcx::view;

namespace {

// A ladder of `rungs` pairs: a_i -> a_{i+1}, a_i -> b_i, b_i -> a_{i+1}.
DisplayGraph ladder(size_t rungs) {
  DisplayGraph g;
  g.name = "ladder";
  for (size_t i = 0; i < rungs; ++i) {
    g.nodes.push_back({{ItemKind::Node, "a" + std::to_string(i)}, "a" + std::to_string(i)});
    g.nodes.push_back({{ItemKind::Node, "b" + std::to_string(i)}, "b" + std::to_string(i)});
  }
  for (size_t i = 0; i < rungs; ++i) {
    g.edges.push_back({2 * i, 2 * i + 1});
    if (i + 1 < rungs) {
      g.edges.push_back({2 * i, 2 * i + 2});
      g.edges.push_back({2 * i + 1, 2 * i + 2});
    }
  }
  return g;
}

bool overlap(const LayoutRect& a, const LayoutRect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

} // namespace

TEST_CASE("The layered layout puts every edge's head below its tail and no two nodes on each other", "[view][layout]") {
  const DisplayGraph g = ladder(40);
  const GraphLayout layout = layeredLayout(g);
  CHECK(layout.engine == LayoutEngine::Layered);
  REQUIRE(layout.nodes.size() == g.nodes.size());
  REQUIRE(layout.edges.size() == g.edges.size());
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const LayoutRect& from = layout.nodes[g.edges[i].from];
    const LayoutRect& to = layout.nodes[g.edges[i].to];
    CHECK(from.y + from.height <= to.y);
    REQUIRE(layout.edges[i].bezier.size() == 4);
    CHECK(layout.edges[i].bezier.front().y == Approx(from.y + from.height));
    CHECK(layout.edges[i].arrowTip.y == Approx(to.y));
  }
  for (size_t i = 0; i < layout.nodes.size(); ++i)
    for (size_t j = i + 1; j < layout.nodes.size(); ++j) CHECK_FALSE(overlap(layout.nodes[i], layout.nodes[j]));
  for (const LayoutRect& box : layout.nodes) {
    CHECK(box.x >= layout.bounds.x);
    CHECK(box.y + box.height <= layout.bounds.y + layout.bounds.height);
  }
}

TEST_CASE("The layered layout boxes each cluster around its nodes", "[view][layout]") {
  DisplayGraph g = ladder(3);
  g.clusters.push_back({{ItemKind::Group, "/outer"}, "outer", ClusterKind::Scope, -1});
  g.clusters.push_back({{ItemKind::Group, "/outer/inner"}, "inner", ClusterKind::Scope, 0});
  g.nodes[0].cluster = 1;
  g.nodes[1].cluster = 1;
  g.nodes[2].cluster = 0;
  const GraphLayout layout = layeredLayout(g);
  auto inside = [](const LayoutRect& in, const LayoutRect& out) {
    return in.x >= out.x && in.y >= out.y && in.x + in.width <= out.x + out.width && in.y + in.height <= out.y + out.height;
  };
  CHECK(inside(layout.nodes[0], layout.clusters[1].box));
  CHECK(inside(layout.nodes[1], layout.clusters[1].box));
  CHECK(inside(layout.nodes[2], layout.clusters[0].box));
  CHECK(inside(layout.clusters[1].box, layout.clusters[0].box));
}

TEST_CASE("Views beyond dot's limits are laid out in layers", "[view][layout]") {
  CHECK(layoutGraph(ladder(10)).engine == LayoutEngine::Graphviz);
  CHECK(layoutGraph(ladder(kGraphvizNodeLimit)).engine == LayoutEngine::Layered);
  const GraphLayout small = layoutGraph(ladder(10));
  for (const LayoutRect& box : small.nodes) CHECK(box.width > 0);
}
