#pragma once
// What the details panels say about one item, as a title and (field, value)
// rows built from the session: the desktop explorer renders them as HTML,
// `tcx serve` and reports send them as JSON. One function per kind of item.

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx::view {

struct DetailField {
  std::string label;
  std::string value; // lines separated by '\n'
  bool code = false; // a type, attribute or mapping: shown in a fixed-width font
};

struct ItemDetails {
  std::string title;
  std::vector<DetailField> fields;
};

// nullopt when the session has no such item.
std::optional<ItemDetails> itemDetails(const VtcSession& session, const ItemRef& ref);

} // namespace tcx::view
