#include "passes/BatchNormToAffine.h"

#include "ir/Graph.h"
#include "ops/OpRegistry.h"

namespace tcx {

int batchNormsToAffine(Graph& graph) {
  int rewritten = 0;
  for (Node* n : graph.nodes()) {
    if (!n->op().inferenceAffine || n->numOutputs() != 1 || n->output(0)->isGraphOutput()) continue;
    Value* x = n->input(0);
    if (!x || x->type().rank() < 2) continue;
    std::optional<ChannelAffine> affine = n->op().inferenceAffine(*n);
    if (!affine) continue;
    // [C, 1, ..., 1]: broadcast along dimension 1 of x.
    Shape perChannel(static_cast<size_t>(x->type().rank() - 1), 1);
    perChannel[0] = x->type().shape[1];
    Value* scale = graph.addConstant(graph.uniqueValueName(n->name() + "_scale"), affine->scale.reshaped(perChannel));
    Value* shift = graph.addConstant(graph.uniqueValueName(n->name() + "_shift"), affine->shift.reshaped(perChannel));
    Value* scaled =
        addNode(graph, "Mul", {x, scale}, {graph.uniqueValueName(n->name() + "_scaled")}, {}, n->name() + "_scale")
            ->output(0);
    Value* y = addNode(graph, "Add", {scaled, shift}, {graph.uniqueValueName(n->output(0)->name())}, {},
                       n->name() + "_shift")
                   ->output(0);
    graph.replaceAllUsesWith(n->output(0), y);
    ++rewritten;
  }
  if (rewritten) graph.topologicalSort();
  return rewritten;
}

} // namespace tcx
