#pragma once
// The graph views as the web explorer receives them: a DisplayGraph (what
// the view contains, built by core/view exactly as for the desktop explorer
// and `tcx dot`) with its layout (view/GraphLayout.h) and, for the grouped
// views, the group tree and which groups are expanded.

#include "pipeline/VtcSession.h"
#include "view/DisplayGraph.h"
#include "view/GroupTree.h"
#include "web/api/ApiTypes.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>

namespace tcx::web {

// The four views, as the API names them.
enum class ViewKind { Computation, Kernels, Vtog, PointsTo };
inline constexpr ViewKind kViewKinds[] = {ViewKind::Computation, ViewKind::Kernels, ViewKind::Vtog, ViewKind::PointsTo};
const char* viewKindName(ViewKind kind); // "computation", "kernels", "vtog", "pointsto"
std::optional<ViewKind> parseViewKind(const std::string& name);

// A view as built for one request: the groups (grouped views only) and the
// display graph.
struct BuiltView {
  ViewKind kind;
  std::optional<view::GroupTree> groups;
  std::set<view::ItemRef> expanded;
  view::DisplayGraph graph;
};

// Builds view `kind` with the expansion the request asks for (`expansion` =
// default | all | none | list, `expand` = group keys); ApiError 400 for an
// unknown expansion or a key that names no group.
BuiltView buildView(const VtcSession& session, ViewKind kind, const ApiRequest& request);

// The view with its layout, heat and groups (docs/web.md, VIEW).
nlohmann::json viewJson(const VtcSession& session, const BuiltView& view);

} // namespace tcx::web
