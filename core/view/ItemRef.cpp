#include "view/ItemRef.h"

#include <array>

namespace tcx::view {

namespace {
constexpr std::array kKinds = {ItemKind::Node, ItemKind::Value, ItemKind::Edge, ItemKind::Kernel, ItemKind::Group};
} // namespace

const char* itemKindName(ItemKind kind) {
  switch (kind) {
  case ItemKind::Node: return "node";
  case ItemKind::Value: return "value";
  case ItemKind::Edge: return "edge";
  case ItemKind::Kernel: return "kernel";
  case ItemKind::Group: return "group";
  }
  return "?";
}

std::string ItemRef::key() const { return std::string(itemKindName(kind)) + ":" + name; }

std::optional<ItemRef> ItemRef::parse(std::string_view key) {
  const size_t colon = key.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  for (ItemKind kind : kKinds)
    if (key.substr(0, colon) == itemKindName(kind)) return ItemRef{kind, std::string(key.substr(colon + 1))};
  return std::nullopt;
}

} // namespace tcx::view
