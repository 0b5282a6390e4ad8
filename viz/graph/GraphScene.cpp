#include "GraphScene.h"

#include <set>

namespace tcx::viz {

namespace {
constexpr double kSceneMargin = 20;
} // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {}

void GraphScene::setContent(const view::DisplayGraph& graph, const GraphGeometry& geometry) {
  clearSelection();
  clear();
  nodes_.clear();
  edges_.clear();
  clusters_.clear();
  byRef_.clear();
  // Refs resolve to the first item drawn for them: nodes, edges, clusters.
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    nodes_.push_back(new GraphNodeItem(graph.nodes[i], geometry.nodes[i]));
    byRef_.emplace(graph.nodes[i].ref, nodes_.back());
  }
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    edges_.push_back(new GraphEdgeItem(graph.edges[i], geometry.edges[i]));
    if (graph.edges[i].ref) byRef_.emplace(*graph.edges[i].ref, edges_.back());
  }
  std::vector<int> depth(graph.clusters.size(), 0);
  for (size_t i = 0; i < graph.clusters.size(); ++i) {
    const int parent = graph.clusters[i].parent;
    depth[i] = parent >= 0 ? depth[parent] + 1 : 0;
    clusters_.push_back(new GraphClusterItem(graph.clusters[i], geometry.clusters[i], depth[i]));
    byRef_.emplace(graph.clusters[i].ref, clusters_.back());
  }
  forEachItem([this](GraphItem* item) { addItem(item); });
  setSceneRect(geometry.bounds.adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
  applyHighlightAndHeat();
}

GraphItem* GraphScene::itemFor(const view::ItemRef& ref) const {
  auto it = byRef_.find(ref);
  return it == byRef_.end() ? nullptr : it->second;
}

GraphItem* GraphScene::graphItem(QGraphicsItem* item) {
  for (; item; item = item->parentItem())
    if (item->type() == GraphItem::Type) return static_cast<GraphItem*>(item);
  return nullptr;
}

void GraphScene::setHighlight(const std::vector<view::ItemRef>& refs) {
  highlight_ = refs;
  applyHighlightAndHeat();
}

void GraphScene::setHeat(const std::map<view::ItemRef, double>& heat) {
  heat_ = heat;
  applyHighlightAndHeat();
}

// Every item carrying a highlighted ref lights up: a tensor consumed twice
// is two edges.
void GraphScene::applyHighlightAndHeat() {
  const std::set<view::ItemRef> lit(highlight_.begin(), highlight_.end());
  forEachItem([&](GraphItem* item) {
    const std::optional<view::ItemRef>& ref = item->ref();
    item->setHighlighted(ref && lit.count(*ref));
    auto heat = ref ? heat_.find(*ref) : heat_.end();
    item->setHeat(heat == heat_.end() ? std::nullopt : std::optional<double>(heat->second));
  });
}

template <typename F> void GraphScene::forEachItem(F f) const {
  for (GraphClusterItem* item : clusters_) f(item);
  for (GraphEdgeItem* item : edges_) f(item);
  for (GraphNodeItem* item : nodes_) f(item);
}

} // namespace tcx::viz
