#pragma once
// Positions for a DisplayGraph, in points with y down: Graphviz's `dot` for
// the graphs people read (the explorer's views, `tcx serve`, reports), and a
// layered layout of our own for graphs too large for `dot` to finish in
// interactive time (thousands of nodes expanded at once).
//
// Both front ends draw the same geometry: the Qt explorer converts it to
// scene coordinates (viz/graph/GraphLayout.h) and the web explorer sends it
// as JSON, so a view looks the same in both.
//
// libgvc and cgraph are not thread safe: every call into them holds one
// mutex, so layouts may run on worker threads.

#include "view/DisplayGraph.h"

#include <vector>

namespace tcx::view {

struct LayoutPoint {
  double x = 0, y = 0;
};

struct LayoutRect {
  double x = 0, y = 0, width = 0, height = 0;
};

struct EdgeLayout {
  // Cubic Bezier control points: start, then three per segment.
  std::vector<LayoutPoint> bezier;
  bool hasArrow = false;
  LayoutPoint arrowFrom, arrowTip; // the arrowhead, from the curve's end to the tip
  bool hasLabel = false;
  LayoutPoint labelCentre;
};

struct ClusterLayout {
  LayoutRect box;
  LayoutPoint labelCentre;
};

enum class LayoutEngine { Graphviz, Layered };

struct GraphLayout {
  LayoutEngine engine = LayoutEngine::Graphviz;
  LayoutRect bounds;
  std::vector<LayoutRect> nodes;       // parallel to DisplayGraph::nodes
  std::vector<EdgeLayout> edges;       // parallel to DisplayGraph::edges
  std::vector<ClusterLayout> clusters; // parallel to DisplayGraph::clusters
};

// Beyond these sizes `dot`'s crossing minimisation takes tens of seconds to
// minutes (DenseNet-121 without name scopes: 550 nodes and 1,149 labelled
// edges did not finish in 150 s), blocking whoever waits for the view;
// layoutGraph switches to layeredLayout. Scoped exports open collapsed to
// their blocks (GroupTree's defaultExpansion) and stay well inside.
inline constexpr size_t kGraphvizNodeLimit = 300;
inline constexpr size_t kGraphvizEdgeLimit = 500;

// Lays `graph` out with `dot`; raises tcx::Error when Graphviz fails.
GraphLayout graphvizLayout(const DisplayGraph& graph);
// Longest-path layers, one barycentric ordering sweep down and up, straight
// edges and clusters boxed around their nodes: linear in the graph's size.
GraphLayout layeredLayout(const DisplayGraph& graph);
// graphvizLayout within kGraphvizNodeLimit and kGraphvizEdgeLimit, layeredLayout beyond.
GraphLayout layoutGraph(const DisplayGraph& graph);

const char* layoutEngineName(LayoutEngine engine); // "graphviz", "layered"

} // namespace tcx::view
