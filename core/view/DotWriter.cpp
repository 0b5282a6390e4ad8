// writeDot: one DOT writer for `tcx dot` and the explorer's layout. The
// attributes mirror what the explorer draws (shapes, fills, edge colours),
// so a DOT rendering by hand looks like the GUI.
#include "view/DisplayGraph.h"

#include <ostream>

namespace tcx::view {

namespace {

// A DOT string: quotes and backslashes escaped, newlines as DOT's centred
// line breaks.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* nodeAttributes(NodeStyle style) {
  switch (style) {
  case NodeStyle::Op: return "shape=box, style=\"rounded,filled\", fillcolor=\"#d0ebff\"";
  case NodeStyle::DataMovementOp: return "shape=box, style=\"rounded,filled,bold\", fillcolor=\"#ffd8a8\", color=\"#e8590c\"";
  case NodeStyle::Tensor: return "shape=ellipse, style=filled, fillcolor=\"#f1f3f5\"";
  case NodeStyle::GraphInput: return "shape=ellipse, style=filled, fillcolor=\"#d3f9d8\"";
  case NodeStyle::GraphOutput: return "shape=ellipse, style=filled, fillcolor=\"#ffe3e3\"";
  case NodeStyle::Constant: return "shape=ellipse, style=\"filled,dashed\", fillcolor=\"#e9ecef\"";
  case NodeStyle::CollapsedGroup: return "shape=box3d, style=filled, fillcolor=\"#e5dbff\"";
  case NodeStyle::PhysicalTensor: return "shape=box, style=filled, fillcolor=\"#adb5bd\"";
  case NodeStyle::VirtualTensor: return "shape=box, style=dashed";
  }
  return "";
}

const char* edgeAttributes(EdgeStyle style) {
  switch (style) {
  case EdgeStyle::Dataflow: return "color=\"#495057\"";
  case EdgeStyle::TypeI: return "color=\"#2b8a3e\"";
  case EdgeStyle::TypeII: return "color=\"#e8590c\", style=dashed";
  case EdgeStyle::PointsTo: return "color=\"#1c7ed6\"";
  }
  return "";
}

class DotWriter {
public:
  // children_[p + 1]: the clusters whose parent is p (-1: the top level).
  DotWriter(const DisplayGraph& graph, std::ostream& os) : graph_(graph), os_(os), children_(graph.clusters.size() + 1) {
    for (size_t c = 0; c < graph.clusters.size(); ++c) children_[graph.clusters[c].parent + 1].push_back(static_cast<int>(c));
  }

  void write() {
    os_ << "digraph " << quoted(graph_.name.empty() ? "tcx" : graph_.name) << " {\n"
        << "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
        << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
    writeMembers(-1, "  ");
    for (size_t i = 0; i < graph_.edges.size(); ++i) writeEdge(i);
    os_ << "}\n";
  }

private:
  void writeMembers(int cluster, const std::string& indent) {
    for (int child : children_[cluster + 1]) writeCluster(child, indent);
    for (const DisplayNode& n : graph_.nodes)
      if (n.cluster == cluster)
        os_ << indent << quoted(n.ref.key()) << " [" << nodeAttributes(n.style) << ", label=" << quoted(n.label)
            << ", tooltip=" << quoted(n.tooltip) << "];\n";
  }

  void writeCluster(int c, const std::string& indent) {
    const DisplayCluster& cluster = graph_.clusters[c];
    os_ << indent << "subgraph " << quoted("cluster_" + std::to_string(c)) << " {\n"
        << indent << "  id=" << quoted(cluster.ref.key()) << "; label=" << quoted(cluster.label)
        << "; style=\"rounded,filled\"; fillcolor=" << (cluster.kind == ClusterKind::Kernel ? "\"#fff9db\"" : "\"#f8f9fa\"")
        << "; labeljust=l;\n";
    writeMembers(c, indent + "  ");
    os_ << indent << "}\n";
  }

  void writeEdge(size_t i) {
    const DisplayEdge& e = graph_.edges[i];
    os_ << "  " << quoted(graph_.nodes[e.from].ref.key()) << " -> " << quoted(graph_.nodes[e.to].ref.key())
        << " [key=" << i << ", " << edgeAttributes(e.style);
    if (e.chosen) os_ << ", penwidth=2.5";
    if (e.ref) os_ << ", id=" << quoted(e.ref->key());
    // An external label, placed after the layout: dot's labels that take part
    // in ranking corrupt its heap on an edge within one rank (Graphviz 2.42,
    // Debian 12: flat_edges reallocates a rank that is still in use), which
    // real exports (BERT's graph view) have.
    if (!e.label.empty()) os_ << ", xlabel=" << quoted(e.label);
    if (!e.tooltip.empty()) os_ << ", tooltip=" << quoted(e.tooltip);
    os_ << "];\n";
  }

  const DisplayGraph& graph_;
  std::ostream& os_;
  std::vector<std::vector<int>> children_;
};

} // namespace

void writeDot(const DisplayGraph& graph, std::ostream& os) { DotWriter(graph, os).write(); }

} // namespace tcx::view
