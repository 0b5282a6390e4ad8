#include "GraphLayout.h"

#include "view/GraphLayout.h"

namespace tcx::viz {

namespace {

QPointF point(const view::LayoutPoint& p) { return {p.x, p.y}; }
QRectF rect(const view::LayoutRect& r) { return {r.x, r.y, r.width, r.height}; }

} // namespace

GraphGeometry layoutGraph(const view::DisplayGraph& graph) {
  const view::GraphLayout layout = view::layoutGraph(graph);
  GraphGeometry geometry;
  geometry.bounds = rect(layout.bounds);
  for (const view::LayoutRect& box : layout.nodes) geometry.nodes.push_back({rect(box)});
  for (const view::EdgeLayout& e : layout.edges) {
    EdgeGeometry& edge = geometry.edges.emplace_back();
    for (const view::LayoutPoint& p : e.bezier) edge.bezier.push_back(point(p));
    if (e.hasArrow) {
      edge.arrowFrom = point(e.arrowFrom);
      edge.arrowTip = point(e.arrowTip);
    }
    if (e.hasLabel) edge.labelCentre = point(e.labelCentre);
  }
  for (const view::ClusterLayout& c : layout.clusters) geometry.clusters.push_back({rect(c.box), point(c.labelCentre)});
  return geometry;
}

} // namespace tcx::viz
