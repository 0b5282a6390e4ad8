#include "passes/ElementwiseOutOfReshapes.h"

#include "ir/Graph.h"
#include "ops/OpDef.h"
#include "ops/OpRegistry.h"

namespace tcx {

namespace {

bool computesPerElement(const Node& node) {
  return node.op().opClass == OpClass::Elementwise && node.op().cudaExpr && node.numOutputs() == 1;
}

bool onlyUser(const Value* v, const Node* user) {
  return !v->isGraphOutput() && v->uses().size() == 1 && v->uses().front().user == user;
}

Value* shapeConstant(Graph& graph, const Shape& shape) {
  return graph.addConstant(graph.uniqueValueName("shape"),
                           Tensor::fromVector<int64_t>(Shape{static_cast<int64_t>(shape.size())}, shape));
}

// The operand of `e` that is a reshape of a value shaped like `outer`'s
// result, read by `e` alone and as large as e's result; null if none.
Node* innerReshape(const Node& e, const Node& outer) {
  for (Value* operand : e.inputs()) {
    Node* inner = operand ? operand->producer() : nullptr;
    if (inner && inner->op().fusionRole == FusionRole::Reshape && onlyUser(operand, &e) &&
        inner->input(0)->type().shape == outer.output(0)->type().shape &&
        operand->type().shape == e.output(0)->type().shape)
      return inner;
  }
  return nullptr;
}

} // namespace

int moveElementwiseOutOfReshapes(Graph& graph) {
  int moved = 0;
  for (Node* outer : graph.nodes()) {
    if (outer->op().fusionRole != FusionRole::Reshape || outer->output(0)->isGraphOutput()) continue;
    Node* e = outer->input(0)->producer();
    if (!e || !computesPerElement(*e) || !onlyUser(e->output(0), outer)) continue;
    Node* inner = innerReshape(*e, *outer);
    if (!inner) continue;
    const Shape& viewed = e->output(0)->type().shape;
    const Shape& original = outer->output(0)->type().shape;
    Value* originalShape = shapeConstant(graph, original);
    std::vector<Value*> operands;
    for (Value* operand : e->inputs()) {
      if (operand == inner->output(0)) {
        operands.push_back(inner->input(0));
        continue;
      }
      Value* full = operand;
      if (operand->type().shape != viewed)
        full = addNode(graph, "Expand", {operand, shapeConstant(graph, viewed)},
                       {graph.uniqueValueName(operand->name() + "_expanded")})
                   ->output(0);
      operands.push_back(
          addNode(graph, "Reshape", {full, originalShape}, {graph.uniqueValueName(operand->name() + "_reshaped")})
              ->output(0));
    }
    Node* replacement = addNode(graph, e->opType(), operands, {graph.uniqueValueName(e->output(0)->name())},
                                e->attrs(), e->name());
    graph.replaceAllUsesWith(outer->output(0), replacement->output(0));
    ++moved;
  }
  if (moved) graph.topologicalSort();
  return moved;
}

} // namespace tcx
