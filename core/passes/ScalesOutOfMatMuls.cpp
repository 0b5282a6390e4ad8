#include "passes/ScalesOutOfMatMuls.h"

#include "ir/Graph.h"
#include "ops/OpRegistry.h"

#include <string>

namespace tcx {

namespace {

bool isFloatScalar(const Value* v) { return v->type().dtype == DType::F32 && v->type().numElements() == 1; }

// An operand of a MatMul as Mul(x, s), Mul(s, x) or Div(x, s) with s a
// one-element float, read by the MatMul alone and as large as x; else the
// operand itself with no scale.
struct Scaled {
  Value* value;
  Value* scale = nullptr;
  std::string op; // "Mul" or "Div": how the scale applies
};

Scaled unscale(Value* operand, const Node* matMul) {
  const Node* p = operand->producer();
  const bool onlyHere =
      !operand->isGraphOutput() && operand->uses().size() == 1 && operand->uses().front().user == matMul;
  const FusionRole role = p ? p->op().fusionRole : FusionRole::None;
  if ((role != FusionRole::Product && role != FusionRole::Quotient) || !onlyHere || p->numInputs() != 2)
    return {operand};
  // The scaled operand as large as the result: the scale broadcasts without growing it.
  auto whole = [&](const Value* x) { return x->type().shape == operand->type().shape; };
  Value *x = p->input(0), *s = p->input(1);
  if (isFloatScalar(s) && whole(x)) return {x, s, p->opType()};
  if (role == FusionRole::Product && isFloatScalar(x) && whole(s)) return {s, x, p->opType()};
  return {operand};
}

} // namespace

int moveScalesOutOfMatMuls(Graph& graph) {
  int moved = 0;
  for (Node* mm : graph.nodes()) {
    if (mm->op().fusionRole != FusionRole::MatrixProduct || mm->output(0)->type().dtype != DType::F32 || mm->output(0)->isGraphOutput() ||
        mm->output(0)->type().shape.empty())
      continue;
    const Scaled a = unscale(mm->input(0), mm), b = unscale(mm->input(1), mm);
    if (!a.scale && !b.scale) continue;
    Value* result = addNode(graph, "MatMul", {a.value, b.value}, {graph.uniqueValueName(mm->output(0)->name())},
                            mm->attrs(), mm->name())
                        ->output(0);
    for (const Scaled& side : {a, b})
      if (side.scale)
        result = addNode(graph, side.op, {result, side.scale}, {graph.uniqueValueName("scaled")})->output(0);
    graph.replaceAllUsesWith(mm->output(0), result);
    ++moved;
  }
  if (moved) graph.topologicalSort();
  return moved;
}

} // namespace tcx
