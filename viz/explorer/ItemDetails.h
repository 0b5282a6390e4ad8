#pragma once
// The details panel's content for one ItemRef (view/ItemDetails.h) as HTML.

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <QString>

namespace tcx::viz {

// Empty when the session has no such item.
QString itemDetailsHtml(const VtcSession& session, const view::ItemRef& ref);

} // namespace tcx::viz
