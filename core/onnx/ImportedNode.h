#pragma once
// A node on its way from a NodeProto to a Graph node. Legacy opset forms are
// rewritten at this stage, where values are still only names: a node can be
// replaced by several, and its results rerouted, without renaming anything.

#include "ir/Attribute.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace tcx {

struct ImportedNode {
  std::string name;
  std::string opType;
  std::vector<std::string> inputs; // "" for an omitted optional input
  std::vector<std::string> outputs;
  AttrMap attrs;
};

// The names in use in one namespace of a model (values, or nodes), and
// fresh ones that collide with none of them.
class NameTable {
public:
  // Marks `name` as used; false if it already was.
  bool insert(const std::string& name) { return used_.insert(name).second; }
  // `base` if it is free, else `base_1`, `base_2`, ...; marked as used.
  std::string fresh(const std::string& base);

private:
  std::unordered_set<std::string> used_;
};

} // namespace tcx
