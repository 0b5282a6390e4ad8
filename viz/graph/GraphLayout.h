#pragma once
// A DisplayGraph's layout (view/GraphLayout.h: Graphviz's `dot`, or the
// layered layout for very large graphs) in scene coordinates (points, y
// down). Layouts may run on worker threads (QtConcurrent) while the UI
// thread only draws finished geometry.

#include "view/DisplayGraph.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <vector>

namespace tcx::viz {

struct NodeGeometry {
  QRectF box;
};

struct EdgeGeometry {
  // Cubic Bezier control points: start, then three per segment.
  std::vector<QPointF> bezier;
  // The arrowhead: from the curve's end to the head's tip (none when equal).
  QPointF arrowFrom, arrowTip;
  QPointF labelCentre; // valid with a label
};

struct ClusterGeometry {
  QRectF box;
  QPointF labelCentre;
};

struct GraphGeometry {
  QRectF bounds;
  std::vector<NodeGeometry> nodes;       // parallel to DisplayGraph::nodes
  std::vector<EdgeGeometry> edges;       // parallel to DisplayGraph::edges
  std::vector<ClusterGeometry> clusters; // parallel to DisplayGraph::clusters
};

// Lays `graph` out (view::layoutGraph); raises tcx::Error when Graphviz fails.
GraphGeometry layoutGraph(const view::DisplayGraph& graph);

} // namespace tcx::viz
