#pragma once
// What an item on screen stands for, named the way the core names it: an op
// (Node name), a tensor (Value name), a VTOG edge ("e3"), a fused kernel
// (FusedKernel name) or a group of ops (a name-scope path such as
// "/model/layers.0/self_attn"). Every view of the explorer maps its items to
// ItemRefs, so a selection in one view is found in every other (linked
// selection), and `tcx dot` writes them as DOT node ids.

#include <optional>
#include <string>
#include <string_view>

namespace tcx::view {

enum class ItemKind { Node, Value, Edge, Kernel, Group };

struct ItemRef {
  ItemKind kind = ItemKind::Node;
  std::string name;

  // "node:/model/MatMul", "value:q", "edge:e3", "kernel:k4", "group:/model/layers.0".
  std::string key() const;
  // The inverse of key(); nullopt for anything else.
  static std::optional<ItemRef> parse(std::string_view key);

  friend bool operator==(const ItemRef&, const ItemRef&) = default;
  friend auto operator<=>(const ItemRef&, const ItemRef&) = default;
};

const char* itemKindName(ItemKind kind);

} // namespace tcx::view
