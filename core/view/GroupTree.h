#pragma once
// Hierarchical groups of ops for the computation-graph view: the name
// scopes of an ONNX export ("/model/layers.0/self_attn/MatMul" lies in
// /model, /model/layers.0 and /model/layers.0/self_attn), or the fused
// kernels of the KernelGraph (one level). A view expands some groups and
// draws every other one as a single node, so a large model lays out only
// what the user looks at.

#include "view/ItemRef.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {
class Graph;
class KernelGraph;
class Node;
} // namespace tcx

namespace tcx::view {

struct OpGroup {
  ItemRef ref; // Group (scope path) or Kernel (kernel name)
  std::string label;
  int parent = -1;
  int depth = 0;
  std::vector<int> children;
  std::vector<const Node*> ops; // directly inside, in graph order
  size_t totalOps = 0;          // inside, at any depth
};

class GroupTree {
public:
  const std::vector<OpGroup>& groups() const { return groups_; }
  // The innermost group of `op`, or -1 when it lies in none.
  int groupOf(const Node* op) const;
  // The index of the group `ref` names, or -1.
  int find(const ItemRef& ref) const;
  size_t ungroupedOps() const { return ungroupedOps_; }

  // Used by the builders: parents before children.
  int addGroup(OpGroup group);
  void addOp(int group, const Node* op);

private:
  std::vector<OpGroup> groups_;
  std::unordered_map<const Node*, int> groupOf_;
  std::unordered_map<std::string, int> byKey_;
  size_t ungroupedOps_ = 0;
};

// Groups by the "/"-separated scopes of node names; a name without a scope
// belongs to no group.
GroupTree scopeTree(const Graph& graph);
// One group per fused kernel of more than one op.
GroupTree kernelTree(const KernelGraph& kernels);

// The groups to expand by default: whole levels from the top, as long as
// the drawn groups and ops stay within `budget`, so a small model is shown
// whole and a 1,000-op model opens as its top-level blocks.
std::set<ItemRef> defaultExpansion(const GroupTree& tree, size_t budget = 120);
std::set<ItemRef> allGroups(const GroupTree& tree);

} // namespace tcx::view
