#include "ItemDetails.h"

#include "view/ItemDetails.h"

namespace tcx::viz {

namespace {

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped().replace('\n', "<br>"); }

} // namespace

QString itemDetailsHtml(const VtcSession& session, const view::ItemRef& ref) {
  const std::optional<view::ItemDetails> details = view::itemDetails(session, ref);
  if (!details) return {};
  QString out = "<h3>" + html(details->title) + "</h3><table cellspacing='4'>";
  for (const view::DetailField& f : details->fields) {
    const QString value = f.code ? "<code>" + html(f.value) + "</code>" : html(f.value);
    out += "<tr><td><b>" + html(f.label) + "</b></td><td>" + value + "</td></tr>";
  }
  return out + "</table>";
}

} // namespace tcx::viz
