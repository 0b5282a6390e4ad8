#pragma once
// The details panel's content for one ItemRef, as HTML: a title and rows of
// (field, value) built from the session. Kept apart from the widget so each
// kind of item reads as one function.

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <QString>

namespace tcx::viz {

// Empty when the session has no such item.
QString itemDetailsHtml(const VtcSession& session, const view::ItemRef& ref);

} // namespace tcx::viz
