#include "web/api/ViewJson.h"

#include "view/ComputationGraphView.h"
#include "view/GraphLayout.h"
#include "view/LatencyHeat.h"
#include "view/PointsToView.h"
#include "view/VtogView.h"

namespace tcx::web {

namespace {

std::set<view::ItemRef> expansionOf(const view::GroupTree& groups, const ApiRequest& request) {
  const std::vector<std::string> keys = request.params("expand");
  const std::string mode = request.param("expansion", keys.empty() ? "default" : "list");
  if (mode == "default") return view::defaultExpansion(groups);
  if (mode == "all") return view::allGroups(groups);
  if (mode == "none") return {};
  if (mode != "list") throw ApiError(400, "expansion '" + mode + "': expected default, all, none or list");
  std::set<view::ItemRef> expanded;
  for (const std::string& key : keys) {
    std::optional<view::ItemRef> ref = view::ItemRef::parse(key);
    if (!ref || groups.find(*ref) < 0) throw ApiError(400, "expand '" + key + "': no such group in this view");
    expanded.insert(*ref);
  }
  return expanded;
}

nlohmann::json rect(const view::LayoutRect& r) { return {r.x, r.y, r.width, r.height}; }
nlohmann::json point(const view::LayoutPoint& p) { return {p.x, p.y}; }

nlohmann::json groupsJson(const view::GroupTree& groups, const std::set<view::ItemRef>& expanded) {
  nlohmann::json out = nlohmann::json::array();
  for (const view::OpGroup& g : groups.groups())
    out.push_back({{"key", g.ref.key()},
                   {"label", g.label},
                   {"depth", g.depth},
                   {"parent", g.parent},
                   {"ops", g.totalOps},
                   {"expanded", expanded.count(g.ref) > 0}});
  return out;
}

const char* clusterKindName(view::ClusterKind kind) {
  switch (kind) {
  case view::ClusterKind::Scope: return "scope";
  case view::ClusterKind::Kernel: return "kernel";
  }
  return "?";
}

} // namespace

const char* viewKindName(ViewKind kind) {
  switch (kind) {
  case ViewKind::Computation: return "computation";
  case ViewKind::Kernels: return "kernels";
  case ViewKind::Vtog: return "vtog";
  case ViewKind::PointsTo: return "pointsto";
  }
  return "?";
}

std::optional<ViewKind> parseViewKind(const std::string& name) {
  for (ViewKind kind : kViewKinds)
    if (name == viewKindName(kind)) return kind;
  return std::nullopt;
}

BuiltView buildView(const VtcSession& s, ViewKind kind, const ApiRequest& request) {
  BuiltView out{kind, std::nullopt, {}, {}};
  switch (kind) {
  case ViewKind::Computation:
  case ViewKind::Kernels:
    out.groups = kind == ViewKind::Computation ? view::scopeTree(s.graph()) : view::kernelTree(s.kernels());
    out.expanded = expansionOf(*out.groups, request);
    out.graph = view::buildComputationGraph(s.graph(), *out.groups, out.expanded);
    break;
  case ViewKind::Vtog: out.graph = view::buildVtogGraph(s.vtog(), view::vtogAnnotations(s)); break;
  case ViewKind::PointsTo: out.graph = view::buildPointsToGraph(s.strategy()); break;
  }
  return out;
}

nlohmann::json viewJson(const VtcSession& s, const BuiltView& built) {
  const view::DisplayGraph& g = built.graph;
  const view::GraphLayout layout = view::layoutGraph(g);
  const std::map<view::ItemRef, double> heat = view::kernelHeat(s.optimizedPlan(), s.optimizedLatency());

  nlohmann::json nodes = nlohmann::json::array();
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const view::DisplayNode& n = g.nodes[i];
    nlohmann::json hidden = nlohmann::json::array();
    for (const view::HiddenItem& h : n.hidden) hidden.push_back(h.ref.key());
    auto it = heat.find(n.ref);
    nodes.push_back({{"key", n.ref.key()},
                     {"label", n.label},
                     {"tooltip", n.tooltip},
                     {"style", view::nodeStyleName(n.style)},
                     {"opType", n.opType},
                     {"cluster", n.cluster},
                     {"box", rect(layout.nodes[i])},
                     {"heat", it == heat.end() ? 0.0 : it->second},
                     {"hidden", std::move(hidden)}});
  }
  nlohmann::json edges = nlohmann::json::array();
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const view::DisplayEdge& e = g.edges[i];
    const view::EdgeLayout& l = layout.edges[i];
    nlohmann::json points = nlohmann::json::array();
    for (const view::LayoutPoint& p : l.bezier) points.push_back(point(p));
    edges.push_back({{"from", e.from},
                     {"to", e.to},
                     {"label", e.label},
                     {"tooltip", e.tooltip},
                     {"style", view::edgeStyleName(e.style)},
                     {"chosen", e.chosen},
                     {"key", e.ref ? nlohmann::json(e.ref->key()) : nlohmann::json()},
                     {"points", std::move(points)},
                     {"arrow", l.hasArrow ? nlohmann::json{point(l.arrowFrom), point(l.arrowTip)} : nlohmann::json()}});
  }
  nlohmann::json clusters = nlohmann::json::array();
  for (size_t i = 0; i < g.clusters.size(); ++i) {
    const view::DisplayCluster& c = g.clusters[i];
    clusters.push_back({{"key", c.ref.key()},
                        {"label", c.label},
                        {"kind", clusterKindName(c.kind)},
                        {"parent", c.parent},
                        {"box", rect(layout.clusters[i].box)}});
  }
  nlohmann::json expanded = nlohmann::json::array();
  for (const view::ItemRef& ref : built.expanded) expanded.push_back(ref.key());
  return {{"name", viewKindName(built.kind)},
          {"title", g.name},
          {"layout", view::layoutEngineName(layout.engine)},
          {"bounds", rect(layout.bounds)},
          {"nodes", std::move(nodes)},
          {"edges", std::move(edges)},
          {"clusters", std::move(clusters)},
          {"groups", built.groups ? groupsJson(*built.groups, built.expanded) : nlohmann::json::array()},
          {"expanded", std::move(expanded)}};
}

} // namespace tcx::web
