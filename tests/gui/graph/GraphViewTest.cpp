// GraphView on the offscreen platform: layouts of the three graph views,
// selection by API and by click, collapse and expand, highlight and heat,
// export, and how long a 1,000-op model takes to open.
#include "GraphView.h"

#include "view/ComputationGraphView.h"
#include "view/PointsToView.h"
#include "view/ViewSamples.h"
#include "view/VtogView.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <iostream>

using namespace tcx;
using namespace tcx::view;
using tcx::view::testing::smallLlama;
using tcx::viz::GraphView;

namespace {

DisplayGraph computationGraph(const Graph& g, const std::set<ItemRef>& expanded) {
  return buildComputationGraph(g, scopeTree(g), expanded);
}

// Sets the graph and waits for its layout; false if it failed or timed out.
bool show(GraphView& view, DisplayGraph graph) {
  QSignalSpy finished(&view, &GraphView::layoutFinished);
  view.setGraph(std::move(graph));
  CHECK(view.isLayoutPending());
  return finished.wait(20000) && !view.isLayoutPending();
}

void requireDrawn(GraphView& view) {
  const DisplayGraph& g = view.graph();
  REQUIRE(view.graphScene().nodeItems().size() == g.nodes.size());
  REQUIRE(view.graphScene().edgeItems().size() == g.edges.size());
  REQUIRE(view.graphScene().clusterItems().size() == g.clusters.size());
  for (const auto* item : view.graphScene().nodeItems()) CHECK(!item->path().boundingRect().isEmpty());
  for (const auto* item : view.graphScene().edgeItems()) CHECK(item->path().elementCount() >= 4);
}

} // namespace

TEST_CASE("the llama sample's three graph views are laid out and drawn", "[gui]") {
  GraphView view;
  Graph g = samples::buildLlama3Decode(smallLlama());
  GroupTree tree = scopeTree(g);
  REQUIRE(show(view, buildComputationGraph(g, tree, allGroups(tree))));
  requireDrawn(view);

  VtcSession s(samples::buildLlama3Decode(smallLlama()), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  REQUIRE(show(view, buildVtogGraph(s.vtog(), vtogAnnotations(s))));
  requireDrawn(view);
  REQUIRE(show(view, buildPointsToGraph(s.strategy())));
  requireDrawn(view);
}

TEST_CASE("selection by API and by mouse reports item refs", "[gui]") {
  GraphView view;
  view.resize(900, 700);
  view.show();
  Graph g = samples::buildLlama3Decode(smallLlama());
  REQUIRE(show(view, computationGraph(g, allGroups(scopeTree(g)))));
  QSignalSpy selected(&view, &GraphView::itemSelected);
  QSignalSpy activated(&view, &GraphView::itemActivated);

  const ItemRef split{ItemKind::Node, "/model/layers.0/self_attn/Split"};
  CHECK(view.select(split));
  CHECK(view.selected() == split);
  CHECK(selected.count() == 0);
  CHECK_FALSE(view.select({ItemKind::Node, "no such op"}));
  CHECK(view.select({ItemKind::Value, "k_cache"}));
  CHECK(view.selected() == ItemRef{ItemKind::Value, "k_cache"});

  const ItemRef scatter{ItemKind::Node, "/model/layers.0/self_attn/k_cache/ScatterND"};
  view.zoomBy(2);
  REQUIRE(view.select(scatter)); // centred, so on screen
  view.graphScene().clearSelection();
  const QPoint at = view.mapFromScene(view.graphScene().itemFor(scatter)->sceneBoundingRect().center());
  QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
  REQUIRE(selected.count() == 1);
  CHECK(selected.at(0).at(0).value<ItemRef>() == scatter);
  CHECK(view.selected() == scatter);
  QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, at);
  REQUIRE(activated.count() == 1);
  CHECK(activated.at(0).at(0).value<ItemRef>() == scatter);
}

TEST_CASE("expanding a collapsed layer draws its items", "[gui]") {
  GraphView view;
  Graph g = samples::buildLlama3Decode(smallLlama(3));
  REQUIRE(show(view, computationGraph(g, {{ItemKind::Group, "/model"}})));
  CHECK(view.graphScene().nodeItems().size() == 4);
  CHECK(view.select({ItemKind::Group, "/model/layers.1"}));
  REQUIRE(show(view, computationGraph(g, {{ItemKind::Group, "/model"}, {ItemKind::Group, "/model/layers.1"}})));
  requireDrawn(view);
  CHECK(view.graphScene().nodeItems().size() > 4);
  CHECK(view.graphScene().clusterItems().size() == 2);
  // The selection follows the group from node to cluster.
  CHECK(dynamic_cast<viz::GraphClusterItem*>(view.graphScene().itemFor({ItemKind::Group, "/model/layers.1"})));
  CHECK(view.selected() == ItemRef{ItemKind::Group, "/model/layers.1"});
}

TEST_CASE("highlight and heat recolour items, empty clears", "[gui]") {
  GraphView view;
  Graph g = samples::buildLlama3Decode(smallLlama());
  REQUIRE(show(view, computationGraph(g, allGroups(scopeTree(g)))));
  const ItemRef split{ItemKind::Node, "/model/layers.0/self_attn/Split"};
  const ItemRef softmax{ItemKind::Node, "/model/layers.0/self_attn/Softmax"};
  auto brush = [&](const ItemRef& r) { return view.graphScene().itemFor(r)->brush().color(); };
  const QColor plain = brush(split);

  view.highlight({split});
  CHECK(brush(split) != plain);
  CHECK(view.graphScene().itemFor(split)->highlighted());
  view.highlight({});
  CHECK(brush(split) == plain);

  view.setHeat({{split, 1.0}, {softmax, 0.1}});
  CHECK(brush(split) != plain);
  CHECK(brush(split) != brush(softmax));
  view.setHeat({});
  CHECK(brush(split) == plain);
}

TEST_CASE("zoom, fit and view transforms for side-by-side panes", "[gui]") {
  GraphView view;
  view.resize(600, 400);
  Graph g = samples::buildLlama3Decode(smallLlama());
  REQUIRE(show(view, computationGraph(g, allGroups(scopeTree(g)))));
  QSignalSpy changed(&view, &GraphView::viewChanged);
  const double fitted = view.viewTransform().m11();
  view.zoomBy(2);
  CHECK(view.viewTransform().m11() == Approx(2 * fitted));
  CHECK(changed.count() >= 1);
  QTest::keyClick(&view, Qt::Key_F);
  CHECK(view.viewTransform().m11() == Approx(fitted));

  GraphView other;
  other.resize(600, 400);
  REQUIRE(show(other, computationGraph(g, allGroups(scopeTree(g)))));
  view.zoomBy(3);
  other.setViewTransform(view.viewTransform(), view.viewCentre());
  CHECK(other.viewTransform() == view.viewTransform());
}

TEST_CASE("views export to SVG and PNG", "[gui]") {
  GraphView view;
  QTemporaryDir dir;
  CHECK_FALSE(view.exportSvg(dir.filePath("empty.svg"))); // nothing drawn yet
  Graph g = samples::buildLlama3Decode(smallLlama());
  REQUIRE(show(view, computationGraph(g, allGroups(scopeTree(g)))));
  REQUIRE(view.exportSvg(dir.filePath("graph.svg")));
  REQUIRE(view.exportPng(dir.filePath("graph.png")));
  CHECK(QFileInfo(dir.filePath("graph.svg")).size() > 1000);
  CHECK(QFileInfo(dir.filePath("graph.png")).size() > 1000);
  CHECK_FALSE(view.exportPng(dir.filePath("no/such/dir/graph.png")));
}

TEST_CASE("a 1,000-op model opens quickly with the default grouping", "[gui]") {
  QElapsedTimer timer;
  timer.start();
  Graph g = samples::buildLlama3Decode(smallLlama(22));
  REQUIRE(g.numNodes() >= 1000);
  const qint64 built = timer.elapsed();
  GroupTree tree = scopeTree(g);
  GraphView view;
  REQUIRE(show(view, buildComputationGraph(g, tree, defaultExpansion(tree))));
  const qint64 opened = timer.elapsed();
  const size_t openedItems = view.graph().nodes.size();
  requireDrawn(view);

  // Opening one layer of it, as a double-click does, and everything at once.
  auto time = [&](const std::set<ItemRef>& expanded) {
    timer.restart();
    REQUIRE(show(view, buildComputationGraph(g, tree, expanded)));
    return timer.elapsed();
  };
  std::set<ItemRef> oneLayer = defaultExpansion(tree);
  oneLayer.insert({ItemKind::Group, "/model/layers.7"});
  const qint64 layerMs = time(oneLayer);
  const qint64 allMs = time(allGroups(tree));
  std::cout << g.numNodes() << "-op llama: built in " << built << " ms, opened (" << openedItems << " items) in " << opened
            << " ms; one layer expanded in " << layerMs << " ms; all expanded (" << view.graph().nodes.size() << " items) in "
            << allMs << " ms\n";
  CHECK(opened < 20000);
  CHECK(layerMs < 20000);
}
