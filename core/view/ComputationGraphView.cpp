#include "view/ComputationGraphView.h"
#include "ops/OpDef.h"

#include "ir/Graph.h"
#include "view/TensorNodes.h"

#include <fmt/format.h>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace tcx::view {

namespace {

// "MatMul" for "/model/.../qkv_proj/MatMul" ("MatMul_1" keeps its suffix):
// the cluster around it already says where it is.
std::string opLabel(const Node& op) {
  const std::string last = op.name().substr(op.name().rfind('/') + 1);
  return last == op.opType() ? last : op.opType() + "\n" + last;
}

std::string opTooltip(const Node& op) {
  std::string s = fmt::format("{}\n{}{}", op.name(), op.opType(), op.op().isDataMovement() ? " (data movement)" : "");
  for (const Value* v : op.inputs())
    if (v) s += fmt::format("\nin  {}: {}", v->name(), v->type().toString());
  for (const Value* v : op.outputs()) s += fmt::format("\nout {}: {}", v->name(), v->type().toString());
  return s;
}

class ComputationGraphBuilder {
public:
  ComputationGraphBuilder(const Graph& graph, const GroupTree& tree, const std::set<ItemRef>& expanded)
      : graph_(graph), tree_(tree), expanded_(expanded), collapsedRoot_(tree.groups().size(), -1),
        clusterOf_(tree.groups().size(), -1), groupNode_(tree.groups().size(), 0) {
    out_.name = graph.name;
  }

  DisplayGraph build() {
    addGroups();
    for (const Node* op : graph_.nodes()) addOp(*op);
    for (const Value* in : graph_.inputs()) addInput(*in);
    for (const Node* op : graph_.nodes())
      for (const Value* v : op->inputs())
        if (v && (v->producer() || ioNode_.count(v))) addEdge(*v, endpoint(*v), repOf(*op));
    for (const Value* v : graph_.outputs()) addOutput(*v);
    return std::move(out_);
  }

private:
  // Clusters for the expanded groups that are drawn, one node for each
  // outermost collapsed group.
  void addGroups() {
    const std::vector<OpGroup>& groups = tree_.groups();
    for (size_t g = 0; g < groups.size(); ++g) {
      const OpGroup& group = groups[g];
      const int parentRoot = group.parent >= 0 ? collapsedRoot_[group.parent] : -1;
      if (parentRoot >= 0) {
        collapsedRoot_[g] = parentRoot;
        continue;
      }
      const int parentCluster = group.parent >= 0 ? clusterOf_[group.parent] : -1;
      if (expanded_.count(group.ref)) {
        clusterOf_[g] = static_cast<int>(out_.clusters.size());
        out_.clusters.push_back({group.ref, group.label,
                                 group.ref.kind == ItemKind::Kernel ? ClusterKind::Kernel : ClusterKind::Scope, parentCluster});
        continue;
      }
      collapsedRoot_[g] = static_cast<int>(g);
      groupNode_[g] = out_.nodes.size();
      out_.nodes.push_back({.ref = group.ref,
                            .label = fmt::format("{}\n{} ops", group.label, group.totalOps),
                            .tooltip = fmt::format("{}\n{} ops (double-click to expand)", group.ref.name, group.totalOps),
                            .style = NodeStyle::CollapsedGroup,
                            .cluster = parentCluster});
    }
  }

  void addOp(const Node& op) {
    const int g = tree_.groupOf(&op);
    if (g >= 0 && collapsedRoot_[g] >= 0) {
      const size_t node = groupNode_[collapsedRoot_[g]];
      out_.nodes[node].hidden.push_back({{ItemKind::Node, op.name()}, op.opType()});
      opNode_[&op] = node;
      return;
    }
    opNode_[&op] = out_.nodes.size();
    out_.nodes.push_back({.ref = {ItemKind::Node, op.name()},
                          .label = opLabel(op),
                          .tooltip = opTooltip(op),
                          .style = op.op().isDataMovement() ? NodeStyle::DataMovementOp : NodeStyle::Op,
                          .opType = op.opType(),
                          .cluster = g >= 0 ? clusterOf_[g] : -1});
  }

  // A graph input read only inside one collapsed group is folded into it.
  void addInput(const Value& in) {
    std::optional<size_t> only;
    bool single = !in.uses().empty();
    for (const Use& use : in.uses()) {
      const size_t rep = repOf(*use.user);
      single = single && (!only || *only == rep);
      only = rep;
    }
    if (single && out_.nodes[*only].style == NodeStyle::CollapsedGroup) {
      out_.nodes[*only].hidden.push_back({{ItemKind::Value, in.name()}, ""});
      return;
    }
    ioNode_[&in] = addTensorNode(in, NodeStyle::GraphInput);
  }

  void addOutput(const Value& v) {
    if (!v.producer() || v.isGraphInput()) return;
    const size_t from = repOf(*v.producer());
    if (out_.nodes[from].style == NodeStyle::CollapsedGroup) {
      out_.nodes[from].hidden.push_back({{ItemKind::Value, v.name()}, ""});
      return;
    }
    addEdge(v, from, addTensorNode(v, NodeStyle::GraphOutput));
  }

  size_t addTensorNode(const Value& v, NodeStyle style) {
    out_.nodes.push_back(tensorNode(v, style));
    return out_.nodes.size() - 1;
  }

  // One edge per tensor between two drawn nodes; none inside a collapsed group.
  void addEdge(const Value& v, size_t from, size_t to) {
    if (from == to || !drawnEdges_.insert({from, to, &v}).second) return;
    out_.edges.push_back({.from = from,
                          .to = to,
                          .label = v.type().toString(),
                          .tooltip = v.name() + ": " + v.type().toString(),
                          .ref = ItemRef{ItemKind::Value, v.name()}});
  }

  size_t repOf(const Node& op) const { return opNode_.at(&op); }
  size_t endpoint(const Value& v) const { return v.producer() ? repOf(*v.producer()) : ioNode_.at(&v); }

  const Graph& graph_;
  const GroupTree& tree_;
  const std::set<ItemRef>& expanded_;
  std::vector<int> collapsedRoot_; // per group: its outermost collapsed ancestor-or-self, or -1
  std::vector<int> clusterOf_;     // per drawn expanded group: its cluster
  std::vector<size_t> groupNode_;  // per outermost collapsed group: its node
  std::unordered_map<const Node*, size_t> opNode_;
  std::unordered_map<const Value*, size_t> ioNode_;
  std::set<std::tuple<size_t, size_t, const Value*>> drawnEdges_;
  DisplayGraph out_;
};

} // namespace

DisplayGraph buildComputationGraph(const Graph& graph, const GroupTree& groups, const std::set<ItemRef>& expanded) {
  return ComputationGraphBuilder(graph, groups, expanded).build();
}

} // namespace tcx::view
