#pragma once
// Positions for a DisplayGraph from Graphviz's `dot`, in scene coordinates
// (points, y down). libgvc and cgraph are not thread safe: every call into
// them holds graphvizMutex(), so layouts may run on worker threads
// (QtConcurrent) while the UI thread only draws finished geometry.

#include "view/DisplayGraph.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <mutex>
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

// The one lock around Graphviz.
std::mutex& graphvizMutex();

// Lays `graph` out with `dot`; raises tcx::Error when Graphviz fails.
GraphGeometry layoutGraph(const view::DisplayGraph& graph);

} // namespace tcx::viz
