// The `dot` half of view/GraphLayout.h: the DOT that writeDot gives `tcx
// dot`, laid out in memory and read back by the keys writeDot gave each
// node, edge and cluster.
#include "view/GraphLayout.h"

#include "support/Error.h"

#include <graphviz/gvc.h>

#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>

namespace tcx::view {

namespace {

// Graphviz's y axis points up; ours points down.
class Flip {
public:
  explicit Flip(boxf bb) : top_(bb.UR.y) {}
  LayoutPoint operator()(pointf p) const { return {p.x, top_ - p.y}; }
  LayoutRect operator()(boxf b) const { return {b.LL.x, top_ - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y}; }

private:
  double top_;
};

constexpr double kPointsPerInch = 72.0;

EdgeLayout edgeLayout(Agedge_t* e, const Flip& flip) {
  EdgeLayout layout;
  if (const splines* spl = ED_spl(e); spl && spl->size > 0) {
    const bezier& bz = spl->list[0];
    for (int i = 0; i < bz.size; ++i) layout.bezier.push_back(flip(bz.list[i]));
    if (bz.eflag && bz.size > 0) {
      layout.hasArrow = true;
      layout.arrowFrom = flip(bz.list[bz.size - 1]);
      layout.arrowTip = flip(bz.ep);
    }
  }
  if (const textlabel_t* label = ED_xlabel(e); label && label->set) {
    layout.hasLabel = true;
    layout.labelCentre = flip(label->pos);
  }
  return layout;
}

// Cluster subgraphs are named "cluster_<index>" by writeDot.
void readClusters(Agraph_t* parent, const Flip& flip, GraphLayout& out) {
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

GraphLayout readLayout(Agraph_t* g, const DisplayGraph& graph) {
  const Flip flip(GD_bb(g));
  GraphLayout out;
  out.engine = LayoutEngine::Graphviz;
  out.bounds = flip(GD_bb(g));
  out.nodes.resize(graph.nodes.size());
  out.edges.resize(graph.edges.size());
  out.clusters.resize(graph.clusters.size());
  std::unordered_map<std::string, size_t> nodeIndex;
  for (size_t i = 0; i < graph.nodes.size(); ++i) nodeIndex.emplace(graph.nodes[i].ref.key(), i);
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    auto it = nodeIndex.find(agnameof(n));
    if (it == nodeIndex.end()) continue;
    const double width = ND_width(n) * kPointsPerInch, height = ND_height(n) * kPointsPerInch;
    const LayoutPoint centre = flip(ND_coord(n));
    out.nodes[it->second] = {centre.x - width / 2, centre.y - height / 2, width, height};
    // Edges are keyed by their index in the DisplayGraph.
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      const size_t index = std::stoul(agnameof(e));
      if (index < out.edges.size()) out.edges[index] = edgeLayout(e, flip);
    }
  }
  readClusters(g, flip, out);
  return out;
}

std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

} // namespace

GraphLayout graphvizLayout(const DisplayGraph& graph) {
  std::ostringstream dot;
  writeDot(graph, dot);
  std::lock_guard lock(graphvizMutex());
  // One context for the process, created under the lock like every other
  // Graphviz call; its plugins are loaded once.
  static GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.str().c_str());
  TCX_CHECK(g != nullptr, ErrorKind::Internal, "Graphviz could not parse the DOT of view '{}'", graph.name);
  // Network simplex (ranking and x positions) bounded to two passes per
  // node: one tensor feeding a hundred collapsed groups (a shared weight)
  // took `dot` over a minute without the bound and 3 s with it, while views
  // that converge anyway lay out the same. Not with clusters: Graphviz 2.42
  // then aborts in rank.c (cluster_leader's assertion).
  if (graph.clusters.empty()) {
    agsafeset(g, const_cast<char*>("nslimit"), "2", "");
    agsafeset(g, const_cast<char*>("nslimit1"), "2", "");
  }
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    raise(ErrorKind::Internal, "Graphviz could not lay out view '{}'", graph.name);
  }
  GraphLayout layout = readLayout(g, graph);
  gvFreeLayout(gvc, g);
  agclose(g);
  return layout;
}

GraphLayout layoutGraph(const DisplayGraph& graph) {
  const bool small = graph.nodes.size() <= kGraphvizNodeLimit && graph.edges.size() <= kGraphvizEdgeLimit;
  return small ? graphvizLayout(graph) : layeredLayout(graph);
}

const char* layoutEngineName(LayoutEngine engine) {
  switch (engine) {
  case LayoutEngine::Graphviz: return "graphviz";
  case LayoutEngine::Layered: return "layered";
  }
  return "?";
}

} // namespace tcx::view
