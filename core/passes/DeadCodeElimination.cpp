#include "passes/DeadCodeElimination.h"

#include "ir/Graph.h"

#include <unordered_set>

namespace tcx {

namespace {

std::unordered_set<const Node*> liveNodes(const Graph& graph) {
  std::unordered_set<const Node*> live;
  std::vector<const Node*> worklist;
  auto reach = [&](const Value* v) {
    if (v && v->producer() && live.insert(v->producer()).second) worklist.push_back(v->producer());
  };
  for (const Value* out : graph.outputs()) reach(out);
  while (!worklist.empty()) {
    const Node* node = worklist.back();
    worklist.pop_back();
    for (const Value* in : node->inputs()) reach(in);
  }
  return live;
}

} // namespace

size_t eliminateDeadCode(Graph& graph) {
  std::unordered_set<const Node*> live = liveNodes(graph);
  std::vector<Node*> dead;
  for (Node* node : graph.nodes())
    if (!live.count(node)) dead.push_back(node);
  // Detaching every dead node first frees the results of all of them from
  // their uses, so they can be erased in any order.
  for (Node* node : dead)
    for (size_t i = 0; i < node->numInputs(); ++i) node->setInput(i, nullptr);
  for (Node* node : dead) graph.eraseNode(node);

  size_t unusedConstants = 0;
  for (const Value* v : graph.values())
    if (v->isConstant() && v->uses().empty() && !v->isGraphOutput()) ++unusedConstants;
  graph.eraseUnusedValues();
  return dead.size() + unusedConstants;
}

} // namespace tcx
