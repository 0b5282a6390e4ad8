#include "view/GroupTree.h"

#include "fusion/KernelGraph.h"
#include "ir/Graph.h"

#include <algorithm>

namespace tcx::view {

int GroupTree::groupOf(const Node* op) const {
  auto it = groupOf_.find(op);
  return it == groupOf_.end() ? -1 : it->second;
}

int GroupTree::find(const ItemRef& ref) const {
  auto it = byKey_.find(ref.key());
  return it == byKey_.end() ? -1 : it->second;
}

int GroupTree::addGroup(OpGroup group) {
  const int index = static_cast<int>(groups_.size());
  if (group.parent >= 0) {
    group.depth = groups_[group.parent].depth + 1;
    groups_[group.parent].children.push_back(index);
  }
  byKey_.emplace(group.ref.key(), index);
  groups_.push_back(std::move(group));
  return index;
}

void GroupTree::addOp(int group, const Node* op) {
  groupOf_[op] = group;
  if (group < 0) {
    ++ungroupedOps_;
    return;
  }
  groups_[group].ops.push_back(op);
  for (int g = group; g >= 0; g = groups_[g].parent) ++groups_[g].totalOps;
}

GroupTree scopeTree(const Graph& graph) {
  GroupTree tree;
  for (const Node* op : graph.nodes()) {
    const std::string& name = op->name();
    int group = -1;
    // Every "/"-terminated prefix past the leading "/" is a scope.
    for (size_t slash = name.find('/', 1); name.starts_with('/') && slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
      ItemRef ref{ItemKind::Group, name.substr(0, slash)};
      int found = tree.find(ref);
      if (found < 0) {
        std::string label = ref.name.substr(ref.name.rfind('/') + 1);
        found = tree.addGroup({.ref = std::move(ref), .label = std::move(label), .parent = group});
      }
      group = found;
    }
    tree.addOp(group, op);
  }
  return tree;
}

GroupTree kernelTree(const KernelGraph& kernels) {
  GroupTree tree;
  for (const FusedKernel& k : kernels.kernels()) {
    int group = -1;
    if (k.nodes.size() > 1)
      group = tree.addGroup({.ref = {ItemKind::Kernel, k.name}, .label = k.name + ": " + kernelKindName(k.kind)});
    for (const Node* op : k.nodes) tree.addOp(group, op);
  }
  return tree;
}

std::set<ItemRef> defaultExpansion(const GroupTree& tree, size_t budget) {
  const std::vector<OpGroup>& groups = tree.groups();
  int maxDepth = 0;
  for (const OpGroup& g : groups) maxDepth = std::max(maxDepth, g.depth);
  std::vector<size_t> groupsAt(maxDepth + 2, 0), opsAt(maxDepth + 1, 0);
  for (const OpGroup& g : groups) {
    ++groupsAt[g.depth];
    opsAt[g.depth] += g.ops.size();
  }
  // Expanding every group at `depth` draws the ops directly inside them and
  // the groups one level down instead.
  size_t drawnOps = tree.ungroupedOps();
  std::set<ItemRef> expanded;
  for (int depth = 0; depth <= maxDepth; ++depth) {
    if (drawnOps + opsAt[depth] + groupsAt[depth + 1] > budget) break;
    drawnOps += opsAt[depth];
    for (const OpGroup& g : groups)
      if (g.depth == depth) expanded.insert(g.ref);
  }
  return expanded;
}

std::set<ItemRef> allGroups(const GroupTree& tree) {
  std::set<ItemRef> all;
  for (const OpGroup& g : tree.groups()) all.insert(g.ref);
  return all;
}

} // namespace tcx::view
