#include "view/ItemDetails.h"

#include "ops/OpDef.h"
#include "view/GroupTree.h"
#include "view/ItemLinks.h"
#include "view/VtogView.h"
#include "vt/EdgeState.h"

#include <fmt/format.h>

namespace tcx::view {

namespace {

class Rows {
public:
  explicit Rows(std::string title) { details_.title = std::move(title); }
  Rows& row(std::string label, std::string value, bool code = false) {
    details_.fields.push_back({std::move(label), std::move(value), code});
    return *this;
  }
  ItemDetails done() { return std::move(details_); }

private:
  ItemDetails details_;
};

std::string typed(const Value* v) { return v ? v->name() + " : " + v->type().toString() : "(omitted)"; }

std::string listed(const std::vector<Value*>& values) {
  std::string out;
  for (const Value* v : values) out += (out.empty() ? "" : "\n") + typed(v);
  return out;
}

std::string kernelLatency(const VtcSession& s, const ItemRef& ref) {
  std::optional<size_t> k = planKernelOf(s.optimizedPlan(), ref);
  if (!k) return "no kernel in the optimised plan";
  return fmt::format("{:.2f} µs in {}, {}", s.optimizedLatency().perKernel[*k].seconds * 1e6,
                     s.optimizedPlan().kernels[*k].name, s.latencySource());
}

ItemDetails nodeDetails(const VtcSession& s, const Node& n) {
  Rows rows(n.opType() + " " + n.name());
  rows.row("Op", n.opType() + (n.op().isDataMovement() ? " (data movement)" : ""));
  for (const auto& [name, attr] : n.attrs().all()) rows.row(name, attr.toString(), true);
  rows.row("Inputs", listed(n.inputs()), true).row("Outputs", listed(n.outputs()), true);
  rows.row("Kernel", s.kernels().kernelOf(&n).name);
  return rows.row("Latency", kernelLatency(s, {ItemKind::Node, n.name()})).done();
}

ItemDetails valueDetails(const VtcSession& s, const Value& v) {
  Rows rows("Tensor " + v.name());
  rows.row("Type", v.type().toString(), true);
  std::string role = v.isGraphInput() ? "graph input" : v.isConstant() ? "constant" : "";
  if (v.isGraphOutput()) role += (role.empty() ? "" : ", ") + std::string("graph output");
  if (!role.empty()) rows.row("Role", role);
  if (v.producer()) rows.row("Producer", v.producer()->describe());
  std::string users;
  for (const Use& u : v.uses()) users += (users.empty() ? "" : "\n") + u.user->describe();
  if (!users.empty()) rows.row("Users", users);
  const bool inVtog = !s.vtog().outgoing(&v).empty() || !s.vtog().incoming(&v).empty();
  if (inVtog) {
    const bool isVirtual = s.strategy().isVirtual(&v);
    rows.row("Strategy", isVirtual ? "virtual" : "physical");
    if (isVirtual) rows.row("Resolves to", s.strategy().resolve(&v).mapping.toString(), true);
  }
  return rows.done();
}

ItemDetails edgeDetails(const VtcSession& s, const VtogEdge& e) {
  const VtogAnnotations notes = vtogAnnotations(s);
  Rows rows("VTOG edge " + vtogEdgeRef(e.id).name);
  rows.row("Virtual", typed(e.from), true).row("Over", typed(e.to), true);
  rows.row("Eliminates", e.op->describe() + ", " + edgeDirectionName(e.direction));
  rows.row("Type", opportunityTypeName(e.type));
  rows.row("Mapping", e.mapping.toString({e.to->name()}), true);
  rows.row("Contiguity", fmt::format("from dim {}, {} elements per run{}", e.contiguity.minContiguousDim,
                                     e.contiguity.runElements, e.contiguity.full ? " (whole tensor)" : ""));
  std::string conflicts;
  for (const ItemRef& c : conflictSetOf(s.vtog(), e.id)) conflicts += (conflicts.empty() ? "" : ", ") + c.name;
  rows.row("Conflicts", conflicts.empty() ? "none" : conflicts);
  rows.row("State", edgeStateName(edgeState(s.constraints(), e.id)));
  rows.row("Chosen", notes.chosen.count(e.id) ? "yes" : "no");
  if (auto it = notes.savings.find(e.id); it != notes.savings.end())
    rows.row("Saving", fmt::format("{:.2f} µs ({})", it->second * 1e6, notes.savingSource));
  return rows.done();
}

ItemDetails kernelDetails(const VtcSession& s, const FusedKernel& k) {
  Rows rows("Kernel " + k.name);
  rows.row("Kind", kernelKindName(k.kind)).row("Ops", k.opSummary());
  std::string nodes;
  for (const Node* n : k.nodes) nodes += (nodes.empty() ? "" : "\n") + n->name();
  rows.row("Nodes", nodes);
  rows.row("Inputs", listed(k.inputs), true).row("Outputs", listed(k.outputs), true);
  return rows.row("Latency", kernelLatency(s, {ItemKind::Kernel, k.name})).done();
}

std::optional<ItemDetails> groupDetails(const VtcSession& s, const ItemRef& ref) {
  const GroupTree scopes = scopeTree(s.graph());
  const int g = scopes.find(ref);
  if (g < 0) return std::nullopt;
  const OpGroup& group = scopes.groups()[static_cast<size_t>(g)];
  return Rows("Scope " + ref.name)
      .row("Ops", std::to_string(group.totalOps))
      .row("Sub-scopes", std::to_string(group.children.size()))
      .done();
}

} // namespace

std::optional<ItemDetails> itemDetails(const VtcSession& s, const ItemRef& ref) {
  switch (ref.kind) {
  case ItemKind::Node:
    if (const Node* n = s.graph().findNode(ref.name)) return nodeDetails(s, *n);
    break;
  case ItemKind::Value:
    if (const Value* v = s.graph().findValue(ref.name)) return valueDetails(s, *v);
    break;
  case ItemKind::Edge:
    if (std::optional<int> id = edgeIdOf(ref); id && *id >= 0 && *id < static_cast<int>(s.vtog().edges().size()))
      return edgeDetails(s, s.vtog().edge(*id));
    break;
  case ItemKind::Kernel:
    for (const FusedKernel& k : s.kernels().kernels())
      if (k.name == ref.name) return kernelDetails(s, k);
    break;
  case ItemKind::Group: return groupDetails(s, ref);
  }
  return std::nullopt;
}

} // namespace tcx::view
