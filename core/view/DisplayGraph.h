#pragma once
// What a graph view shows, independent of how it is drawn: nodes, edges and
// nested clusters, each standing for a core object (an ItemRef). The
// explorer lays it out with Graphviz and draws it with Qt; `tcx dot` writes
// it as DOT. Both go through writeDot, so the batch output and the GUI
// always agree on what a view contains.

#include "view/ItemRef.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tcx::view {

enum class NodeStyle {
  Op,
  DataMovementOp, // marked: the ops VTC eliminates
  Tensor,
  GraphInput,
  GraphOutput,
  Constant,
  CollapsedGroup, // a name scope or fused kernel drawn as one node
  PhysicalTensor, // points-to graph: owns storage (shaded, as in VTC Figure 10)
  VirtualTensor,  // points-to graph: resolves to another tensor's storage
};
const char* nodeStyleName(NodeStyle style);

enum class EdgeStyle {
  Dataflow, // a tensor from producer to consumer
  TypeI,    // VTOG opportunity with a fully contiguous mapping
  TypeII,   // VTOG opportunity that needs measuring
  PointsTo, // points-to graph: a virtual tensor to what it is virtual over
};
const char* edgeStyleName(EdgeStyle style);

enum class ClusterKind { Scope, Kernel };

// An item inside a collapsed group: what search finds there.
struct HiddenItem {
  ItemRef ref;
  std::string opType;
};

struct DisplayNode {
  ItemRef ref;
  std::string label;
  std::string tooltip;
  NodeStyle style = NodeStyle::Op;
  std::string opType;             // for ops, else empty
  int cluster = -1;               // innermost enclosing cluster, or -1
  std::vector<HiddenItem> hidden; // a collapsed group's ops and absorbed tensors
};

struct DisplayEdge {
  size_t from = 0, to = 0; // node indices
  std::string label;
  std::string tooltip;
  EdgeStyle style = EdgeStyle::Dataflow;
  bool chosen = false;        // a VTOG edge the strategy chose
  std::optional<ItemRef> ref; // the tensor it carries, or the VTOG edge
};

struct DisplayCluster {
  ItemRef ref; // a Group (name scope) or Kernel
  std::string label;
  ClusterKind kind = ClusterKind::Scope;
  int parent = -1;
};

struct DisplayGraph {
  std::string name;
  std::vector<DisplayNode> nodes;
  std::vector<DisplayEdge> edges;
  std::vector<DisplayCluster> clusters; // parents before children

  // The node drawn for `ref`, or nullopt.
  std::optional<size_t> findNode(const ItemRef& ref) const;
  // The drawn item that shows `ref`: a node or edge standing for it, else
  // the collapsed group hiding it; nullopt when the view does not contain it.
  std::optional<ItemRef> drawnAs(const ItemRef& ref) const;
};

// DOT with ItemRef keys as node ids, edges keyed by their index (so that a
// layout maps back to DisplayGraph::edges) and clusters as nested
// "cluster_<index>" subgraphs.
void writeDot(const DisplayGraph& graph, std::ostream& os);

} // namespace tcx::view
