#include "view/ItemLinks.h"

#include "view/VtogView.h"

#include <algorithm>
#include <charconv>

namespace tcx::view {

std::optional<int> edgeIdOf(const ItemRef& ref) {
  if (ref.kind != ItemKind::Edge || ref.name.size() < 2 || ref.name[0] != 'e') return std::nullopt;
  int id = 0;
  const char* end = ref.name.data() + ref.name.size();
  auto [ptr, ec] = std::from_chars(ref.name.data() + 1, end, id);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return id;
}

ItemRef kernelRef(const PlanKernel& kernel) { return {ItemKind::Kernel, kernel.fused->name}; }

namespace {

const Node* nodeOf(const Graph& graph, const ItemRef& ref) {
  if (ref.kind == ItemKind::Node) return graph.findNode(ref.name);
  if (ref.kind == ItemKind::Value)
    if (const Value* v = graph.findValue(ref.name)) return v->producer();
  return nullptr;
}

} // namespace

std::optional<size_t> planKernelOf(const ExecPlan& plan, const ItemRef& ref) {
  const Node* node = nodeOf(plan.kernelGraph->graph(), ref);
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const FusedKernel& fused = *plan.kernels[i].fused;
    if (ref.kind == ItemKind::Kernel && fused.name == ref.name) return i;
    if (node && std::find(fused.nodes.begin(), fused.nodes.end(), node) != fused.nodes.end()) return i;
  }
  return std::nullopt;
}

std::vector<int> vtogEdgesOf(const Vtog& vtog, const ItemRef& ref) {
  std::vector<int> edges;
  if (std::optional<int> id = edgeIdOf(ref)) {
    if (*id >= 0 && *id < static_cast<int>(vtog.edges().size())) edges.push_back(*id);
    return edges;
  }
  for (const VtogEdge& e : vtog.edges()) {
    const bool touches = ref.kind == ItemKind::Node ? e.op->name() == ref.name
                         : ref.kind == ItemKind::Value
                             ? e.from->name() == ref.name || e.to->name() == ref.name
                             : false;
    if (touches) edges.push_back(e.id);
  }
  return edges;
}

namespace {

// Items that stand for `ref` where the view does not draw it, best first.
std::vector<ItemRef> standIns(const VtcSession& session, const ItemRef& ref) {
  std::vector<ItemRef> refs;
  const Graph& graph = session.graph();
  switch (ref.kind) {
  case ItemKind::Kernel:
    for (const FusedKernel& k : session.kernels().kernels())
      if (k.name == ref.name)
        for (const Node* n : k.nodes) refs.push_back({ItemKind::Node, n->name()});
    break;
  case ItemKind::Node:
    for (int e : vtogEdgesOf(session.vtog(), ref)) refs.push_back(vtogEdgeRef(e));
    if (const Node* n = graph.findNode(ref.name))
      for (const Value* v : n->outputs()) refs.push_back({ItemKind::Value, v->name()});
    break;
  case ItemKind::Edge:
    if (std::optional<int> id = edgeIdOf(ref); id && *id >= 0 && *id < static_cast<int>(session.vtog().edges().size()))
      refs.push_back({ItemKind::Node, session.vtog().edge(*id).op->name()});
    break;
  case ItemKind::Value:
    if (const Value* v = graph.findValue(ref.name); v && v->producer())
      refs.push_back({ItemKind::Node, v->producer()->name()});
    break;
  case ItemKind::Group: break;
  }
  return refs;
}

} // namespace

std::optional<ItemRef> counterpartIn(const DisplayGraph& graph, const VtcSession& session,
                                           const ItemRef& ref) {
  if (std::optional<ItemRef> drawn = graph.drawnAs(ref)) return drawn;
  for (const ItemRef& standIn : standIns(session, ref))
    if (std::optional<ItemRef> drawn = graph.drawnAs(standIn)) return drawn;
  return std::nullopt;
}

} // namespace tcx::view
