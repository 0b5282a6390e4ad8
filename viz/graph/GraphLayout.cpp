#include "GraphLayout.h"

#include "support/Error.h"

#include <graphviz/gvc.h>
#include <sstream>
#include <string>
#include <unordered_map>

namespace tcx::viz {

namespace {

// Graphviz's y axis points up; the scene's points down.
class Flip {
public:
  explicit Flip(boxf bb) : top_(bb.UR.y) {}
  QPointF operator()(pointf p) const { return {p.x, top_ - p.y}; }
  QRectF operator()(boxf b) const { return QRectF((*this)(pointf{b.LL.x, b.UR.y}), (*this)(pointf{b.UR.x, b.LL.y})); }

private:
  double top_;
};

constexpr double kPointsPerInch = 72.0;

EdgeGeometry edgeGeometry(Agedge_t* e, const Flip& flip) {
  EdgeGeometry geometry;
  if (const splines* spl = ED_spl(e); spl && spl->size > 0) {
    const bezier& bz = spl->list[0];
    for (int i = 0; i < bz.size; ++i) geometry.bezier.push_back(flip(bz.list[i]));
    if (bz.eflag && bz.size > 0) {
      geometry.arrowFrom = flip(bz.list[bz.size - 1]);
      geometry.arrowTip = flip(bz.ep);
    }
  }
  if (const textlabel_t* label = ED_xlabel(e); label && label->set) geometry.labelCentre = flip(label->pos);
  return geometry;
}

// Cluster subgraphs are named "cluster_<index>" by writeDot.
void readClusters(Agraph_t* parent, const Flip& flip, GraphGeometry& out) {
  for (Agraph_t* sub = agfstsubg(parent); sub; sub = agnxtsubg(sub)) {
    const std::string name = agnameof(sub);
    const size_t index = std::stoul(name.substr(name.find('_') + 1));
    if (index < out.clusters.size()) {
      out.clusters[index].box = flip(GD_bb(sub));
      if (const textlabel_t* label = GD_label(sub)) out.clusters[index].labelCentre = flip(label->pos);
    }
    readClusters(sub, flip, out);
  }
}

GraphGeometry readGeometry(Agraph_t* g, const view::DisplayGraph& graph) {
  const Flip flip(GD_bb(g));
  GraphGeometry out;
  out.bounds = flip(GD_bb(g));
  out.nodes.resize(graph.nodes.size());
  out.edges.resize(graph.edges.size());
  out.clusters.resize(graph.clusters.size());
  std::unordered_map<std::string, size_t> nodeIndex;
  for (size_t i = 0; i < graph.nodes.size(); ++i) nodeIndex.emplace(graph.nodes[i].ref.key(), i);
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    auto it = nodeIndex.find(agnameof(n));
    if (it == nodeIndex.end()) continue;
    const QSizeF size(ND_width(n) * kPointsPerInch, ND_height(n) * kPointsPerInch);
    const QPointF centre = flip(ND_coord(n));
    out.nodes[it->second].box = QRectF(centre - QPointF(size.width() / 2, size.height() / 2), size);
    // Edges are keyed by their index in the DisplayGraph.
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      const size_t index = std::stoul(agnameof(e));
      if (index < out.edges.size()) out.edges[index] = edgeGeometry(e, flip);
    }
  }
  readClusters(g, flip, out);
  return out;
}

} // namespace

std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

GraphGeometry layoutGraph(const view::DisplayGraph& graph) {
  std::ostringstream dot;
  view::writeDot(graph, dot);
  std::lock_guard lock(graphvizMutex());
  // One context for the process, created under the lock like every other
  // Graphviz call; its plugins are loaded once.
  static GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.str().c_str());
  TCX_CHECK(g != nullptr, ErrorKind::Internal, "Graphviz could not parse the DOT of view '{}'", graph.name);
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    raise(ErrorKind::Internal, "Graphviz could not lay out view '{}'", graph.name);
  }
  GraphGeometry geometry = readGeometry(g, graph);
  gvFreeLayout(gvc, g);
  agclose(g);
  return geometry;
}

} // namespace tcx::viz
