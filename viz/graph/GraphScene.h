#pragma once
// A laid-out DisplayGraph as Qt items: clusters, edges and nodes, found by
// the ItemRefs they stand for. Highlights and heat are kept by ref, so they
// survive a new drawing of the same items.

#include "GraphItems.h"
#include "GraphLayout.h"

#include <QGraphicsScene>
#include <map>
#include <vector>

namespace tcx::viz {

class GraphScene : public QGraphicsScene {
  Q_OBJECT

public:
  explicit GraphScene(QObject* parent = nullptr);

  // Replaces every item; reapplies the current highlight and heat.
  void setContent(const view::DisplayGraph& graph, const GraphGeometry& geometry);

  // The item drawn for `ref` (a node first, then an edge, then a cluster).
  GraphItem* itemFor(const view::ItemRef& ref) const;
  // The graph item at or above `item`, if any.
  static GraphItem* graphItem(QGraphicsItem* item);

  void setHighlight(const std::vector<view::ItemRef>& refs);
  void setHeat(const std::map<view::ItemRef, double>& heat);

  const std::vector<GraphNodeItem*>& nodeItems() const { return nodes_; }
  const std::vector<GraphEdgeItem*>& edgeItems() const { return edges_; }
  const std::vector<GraphClusterItem*>& clusterItems() const { return clusters_; }

private:
  void applyHighlightAndHeat();
  template <typename F> void forEachItem(F f) const;

  std::vector<GraphNodeItem*> nodes_;
  std::vector<GraphEdgeItem*> edges_;
  std::vector<GraphClusterItem*> clusters_;
  std::map<view::ItemRef, GraphItem*> byRef_;
  std::vector<view::ItemRef> highlight_;
  std::map<view::ItemRef, double> heat_;
};

} // namespace tcx::viz
