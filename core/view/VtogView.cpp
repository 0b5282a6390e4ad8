#include "view/VtogView.h"

#include "pipeline/VtcSession.h"
#include "view/TensorNodes.h"

#include <fmt/format.h>
#include <unordered_map>

namespace tcx::view {

namespace {

constexpr size_t kMaxMappingChars = 40;

// The mapping function in a line short enough for an edge label; the
// tooltip has it whole.
std::string mappingSummary(const VtogEdge& e) {
  if (e.mapping.isIdentity()) return "identity";
  if (e.mapping.pieces().size() > 1) return fmt::format("{} pieces", e.mapping.pieces().size());
  std::string s = e.mapping.toString({"b"});
  return s.size() <= kMaxMappingChars ? s : s.substr(0, kMaxMappingChars - 3) + "...";
}

std::string contiguityText(const Contiguity& c) {
  if (c.full) return "contiguous";
  return fmt::format("runs of {} from dim {}{}", c.runElements, c.minContiguousDim, c.partial ? "" : ", uncoalesced");
}

std::string savingText(const VtogAnnotations& a, int edge) {
  auto it = a.savings.find(edge);
  if (it == a.savings.end()) return {};
  return fmt::format("saves {:.2f} us, {}", it->second * 1e6, a.savingSource);
}

} // namespace

ItemRef vtogEdgeRef(int edgeId) { return {ItemKind::Edge, fmt::format("e{}", edgeId)}; }

VtogAnnotations vtogAnnotations(const VtcSession& session) {
  VtogAnnotations a{.chosen = session.greedy().selected, .savingSource = session.selectionSource()};
  for (const GreedyStep& step : session.greedy().steps)
    for (int e : step.cover) a.savings[e] = step.saving;
  return a;
}

DisplayGraph buildVtogGraph(const Vtog& vtog, const VtogAnnotations& annotations) {
  DisplayGraph out;
  out.name = "vtog";
  std::unordered_map<const Value*, size_t> nodeOf;
  for (const Value* v : vtog.nodes()) {
    nodeOf[v] = out.nodes.size();
    out.nodes.push_back(tensorNode(*v, tensorStyle(*v)));
  }
  for (const VtogEdge& e : vtog.edges()) {
    const std::string type = opportunityTypeName(e.type);
    const std::string saving = savingText(annotations, e.id);
    std::string label = fmt::format("e{} {}\n{}\n{}, {}", e.id, e.op->opType(), mappingSummary(e), type, contiguityText(e.contiguity));
    if (!saving.empty()) label += "\n" + saving;
    std::string tooltip = fmt::format("{}\nmapping: {}\ntype {}, {}", e.describe(), e.mapping.toString({e.to->name()}), type,
                                      contiguityText(e.contiguity));
    if (!saving.empty()) tooltip += "\n" + saving;
    out.edges.push_back({.from = nodeOf.at(e.from),
                         .to = nodeOf.at(e.to),
                         .label = std::move(label),
                         .tooltip = std::move(tooltip),
                         .style = e.type == OpportunityType::TypeI ? EdgeStyle::TypeI : EdgeStyle::TypeII,
                         .chosen = annotations.chosen.count(e.id) != 0,
                         .ref = vtogEdgeRef(e.id)});
  }
  return out;
}

std::vector<ItemRef> conflictSetOf(const Vtog& vtog, int edgeId) {
  std::vector<ItemRef> set;
  for (int other : vtog.outgoing(vtog.edge(edgeId).from))
    if (other != edgeId && vtog.conflict(edgeId, other)) set.push_back(vtogEdgeRef(other));
  return set;
}

} // namespace tcx::view
