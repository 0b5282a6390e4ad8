#include "view/DisplayGraph.h"

namespace tcx::view {

const char* nodeStyleName(NodeStyle style) {
  switch (style) {
  case NodeStyle::Op: return "op";
  case NodeStyle::DataMovementOp: return "data-movement op";
  case NodeStyle::Tensor: return "tensor";
  case NodeStyle::GraphInput: return "graph input";
  case NodeStyle::GraphOutput: return "graph output";
  case NodeStyle::Constant: return "constant";
  case NodeStyle::CollapsedGroup: return "collapsed group";
  case NodeStyle::PhysicalTensor: return "physical tensor";
  case NodeStyle::VirtualTensor: return "virtual tensor";
  }
  return "?";
}

const char* edgeStyleName(EdgeStyle style) {
  switch (style) {
  case EdgeStyle::Dataflow: return "dataflow";
  case EdgeStyle::TypeI: return "type I";
  case EdgeStyle::TypeII: return "type II";
  case EdgeStyle::PointsTo: return "points-to";
  }
  return "?";
}

std::optional<size_t> DisplayGraph::findNode(const ItemRef& ref) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].ref == ref) return i;
  return std::nullopt;
}

std::optional<ItemRef> DisplayGraph::drawnAs(const ItemRef& ref) const {
  if (findNode(ref)) return ref;
  for (const DisplayEdge& e : edges)
    if (e.ref == ref) return ref;
  for (const DisplayCluster& c : clusters)
    if (c.ref == ref) return ref;
  for (const DisplayNode& n : nodes)
    for (const HiddenItem& h : n.hidden)
      if (h.ref == ref) return n.ref;
  return std::nullopt;
}

} // namespace tcx::view
