#include "view/PointsToView.h"

#include "plan/ExecPlan.h"
#include "view/TensorNodes.h"
#include "view/VtogView.h"
#include "vt/PointsToGraph.h"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <set>
#include <unordered_map>

namespace tcx::view {

namespace {

// Where a virtual tensor's elements live, as the resolved mapping (valid
// strategies only: an invalid one has no resolution). Validity is asked once
// per graph by the caller: it samples every tensor's cover (seconds for
// Swin-T's 716 tensors when asked per tensor).
std::string storageNote(const PointsToGraph& strategy, bool valid, const Value& v) {
  if (!strategy.isVirtual(&v) || !valid) return {};
  const PointsToGraph::Resolution& r = strategy.resolve(&v);
  std::vector<std::string> names;
  for (const Value* p : r.physical) names.push_back(p->name());
  return fmt::format("storage: {}\n{}", fmt::join(names, ", "), r.mapping.toString(names));
}

template <typename T> std::vector<T> symmetricDifference(const std::set<T>& a, const std::set<T>& b) {
  std::vector<T> out;
  std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::set<std::string> eliminatedNames(const ExecPlan& plan) {
  std::set<std::string> names;
  for (const Node* n : plan.eliminated) names.insert(n->name());
  return names;
}

} // namespace

DisplayGraph buildPointsToGraph(const PointsToGraph& strategy) {
  const Vtog& vtog = strategy.vtog();
  DisplayGraph out;
  out.name = "points_to";
  std::unordered_map<const Value*, size_t> nodeOf;
  const bool valid = strategy.valid();
  for (const Value* v : vtog.nodes()) {
    nodeOf[v] = out.nodes.size();
    const NodeStyle style = strategy.isVirtual(v) ? NodeStyle::VirtualTensor : NodeStyle::PhysicalTensor;
    out.nodes.push_back(tensorNode(*v, style, storageNote(strategy, valid, *v)));
  }
  for (int id : strategy.selected()) {
    const VtogEdge& e = vtog.edge(id);
    out.edges.push_back({.from = nodeOf.at(e.from),
                         .to = nodeOf.at(e.to),
                         .label = fmt::format("e{} {}", id, e.op->opType()),
                         .tooltip = e.describe(),
                         .style = EdgeStyle::PointsTo,
                         .chosen = true,
                         .ref = vtogEdgeRef(id)});
  }
  return out;
}

std::vector<ItemRef> strategyDifferences(const PointsToGraph& a, const PointsToGraph& b) {
  std::vector<ItemRef> refs;
  for (int e : symmetricDifference(a.selected(), b.selected())) refs.push_back(vtogEdgeRef(e));
  for (const Value* v : a.vtog().nodes())
    if (a.isVirtual(v) != b.isVirtual(v)) refs.push_back({ItemKind::Value, v->name()});
  return refs;
}

std::vector<ItemRef> strategyDifferences(const ExecPlan& a, const ExecPlan& b) {
  std::vector<ItemRef> refs;
  for (const std::string& name : symmetricDifference(eliminatedNames(a), eliminatedNames(b)))
    refs.push_back({ItemKind::Node, name});
  return refs;
}

} // namespace tcx::view
