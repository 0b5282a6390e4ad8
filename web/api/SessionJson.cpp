#include "web/api/SessionJson.h"

#include "view/ItemDetails.h"
#include "view/ItemLinks.h"
#include "view/VtogView.h"
#include "vt/EdgeState.h"

namespace tcx::web {

namespace {

nlohmann::json edgeIds(const std::set<int>& edges) {
  nlohmann::json out = nlohmann::json::array();
  for (int e : edges) out.push_back(view::vtogEdgeRef(e).name);
  return out;
}

nlohmann::json planLatencyJson(const ExecPlan& plan, const PlanLatency& latency) {
  return {{"seconds", latency.seconds},
          {"dataMovementSeconds", latency.dataMovementSeconds},
          {"computeSeconds", latency.computeSeconds},
          {"peakBytes", plan.peakMemoryBytes()},
          {"kernels", plan.kernels.size()}};
}

} // namespace

nlohmann::json strategyJson(const VtcSession& s) {
  const view::VtogAnnotations notes = view::vtogAnnotations(s);
  nlohmann::json edges = nlohmann::json::array();
  for (const VtogEdge& e : s.vtog().edges()) {
    nlohmann::json conflicts = nlohmann::json::array();
    for (const view::ItemRef& c : view::conflictSetOf(s.vtog(), e.id)) conflicts.push_back(c.name);
    auto saving = notes.savings.find(e.id);
    const view::ItemRef ref = view::vtogEdgeRef(e.id);
    edges.push_back({{"id", ref.name},
                     {"key", ref.key()},
                     {"from", e.from->name()},
                     {"to", e.to->name()},
                     {"op", e.op->name()},
                     {"opKey", view::ItemRef{view::ItemKind::Node, e.op->name()}.key()},
                     {"type", opportunityTypeName(e.type)},
                     {"mapping", e.mapping.toString({e.to->name()})},
                     {"contiguous", e.contiguity.full},
                     {"saving", saving == notes.savings.end() ? nlohmann::json() : nlohmann::json(saving->second)},
                     {"chosen", notes.chosen.count(e.id) > 0},
                     {"state", edgeStateName(edgeState(s.constraints(), e.id))},
                     {"conflicts", std::move(conflicts)}});
  }
  const StrategyConstraints& c = s.constraints();
  return {{"source", notes.savingSource},
          {"selection", s.selectionSource()},
          {"constraints",
           {{"accepted", edgeIds(c.accepted)}, {"forced", edgeIds(c.forced)}, {"forbidden", edgeIds(c.forbidden)}}},
          {"edges", std::move(edges)}};
}

nlohmann::json latencyJson(const VtcSession& s, const std::string& check) {
  return {{"source", s.latencySource()},
          {"measured", s.latencyMeasured()},
          {"device", s.latencyDevice()},
          {"baseline", planLatencyJson(s.baselinePlan(), s.baselineLatency())},
          {"optimized", planLatencyJson(s.optimizedPlan(), s.optimizedLatency())},
          {"check", check.empty() ? nlohmann::json() : nlohmann::json(check)}};
}

nlohmann::json kernelsJson(const VtcSession& s, bool optimized) {
  const ExecPlan& plan = optimized ? s.optimizedPlan() : s.baselinePlan();
  const PlanLatency& latency = optimized ? s.optimizedLatency() : s.baselineLatency();
  nlohmann::json kernels = nlohmann::json::array();
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    const PlanKernel& k = plan.kernels[i];
    nlohmann::json ops = nlohmann::json::array();
    for (const Node* n : k.fused->nodes) ops.push_back(view::ItemRef{view::ItemKind::Node, n->name()}.key());
    const KernelEstimate& e = latency.perKernel[i];
    kernels.push_back({{"index", i},
                       {"key", view::kernelRef(k).key()},
                       {"name", k.name},
                       {"dataMovement", k.isDataMovement()},
                       {"copy", k.kind == PlanKernel::Kind::CopyRegions},
                       {"ops", std::move(ops)},
                       {"bytes", e.bytes},
                       {"flops", e.flops},
                       {"seconds", e.seconds}});
  }
  return {{"plan", optimized ? "optimized" : "baseline"}, {"source", s.latencySource()}, {"kernels", std::move(kernels)}};
}

nlohmann::json detailsJson(const VtcSession& s, const view::ItemRef& ref, const std::map<ViewKind, BuiltView>& views) {
  const std::optional<view::ItemDetails> details = view::itemDetails(s, ref);
  if (!details) throw ApiError(404, "'" + ref.key() + "': no such item in this model");
  nlohmann::json fields = nlohmann::json::array();
  for (const view::DetailField& f : details->fields) fields.push_back({f.label, f.value, f.code});
  nlohmann::json edges = nlohmann::json::array();
  for (int e : view::vtogEdgesOf(s.vtog(), ref)) edges.push_back(view::vtogEdgeRef(e).name);
  const std::optional<size_t> k = view::planKernelOf(s.optimizedPlan(), ref);
  nlohmann::json counterparts = nlohmann::json::object();
  for (const auto& [kind, built] : views) {
    const std::optional<view::ItemRef> shown = view::counterpartIn(built.graph, s, ref);
    counterparts[viewKindName(kind)] = shown ? nlohmann::json(shown->key()) : nlohmann::json();
  }
  return {{"key", ref.key()},
          {"kind", view::itemKindName(ref.kind)},
          {"title", details->title},
          {"fields", std::move(fields)},
          {"kernel", k ? nlohmann::json(view::kernelRef(s.optimizedPlan().kernels[*k]).key()) : nlohmann::json()},
          {"edges", std::move(edges)},
          {"counterparts", std::move(counterparts)}};
}

} // namespace tcx::web
