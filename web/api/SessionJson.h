#pragma once
// The open session's facts as the web explorer receives them (docs/web.md):
// the strategy with every VTOG edge's state, both plans' latencies, the
// per-kernel table and an item's details with its counterparts in every
// view (linked selection). Each is built from core objects only.

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"
#include "web/api/ViewJson.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace tcx::web {

nlohmann::json strategyJson(const VtcSession& session);
// `check`: the GPU check verdict of a measurement, empty when estimated.
nlohmann::json latencyJson(const VtcSession& session, const std::string& check);
nlohmann::json kernelsJson(const VtcSession& session, bool optimized);
// ApiError 404 when the session has no such item; `views` gives the views
// (as the client has them expanded) to find counterparts in.
nlohmann::json detailsJson(const VtcSession& session, const view::ItemRef& ref,
                           const std::map<ViewKind, BuiltView>& views);

} // namespace tcx::web
