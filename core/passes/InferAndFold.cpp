#include "passes/InferAndFold.h"

#include "ir/Graph.h"
#include "ops/Evaluate.h"

#include <algorithm>

namespace tcx {

namespace {

// Shape and Size: the static type is all they need, and evaluating their
// kernels would need the operand's value.
bool readsOnlyOperandType(const Node& node) { return node.op().resultFromTypes != nullptr; }

// Whether `type` takes more than `limit` bytes, computed so that it cannot
// overflow whatever shape inference came up with.
bool largerThan(const TensorType& type, size_t limit) {
  if (std::find(type.shape.begin(), type.shape.end(), 0) != type.shape.end()) return false;
  uint64_t fitting = limit / dtypeSize(type.dtype);
  uint64_t count = 1;
  for (int64_t d : type.shape) {
    if (count > fitting / static_cast<uint64_t>(d)) return true;
    count *= static_cast<uint64_t>(d);
  }
  return false;
}

// Whether every result has no elements (Phi-3's partial rotary slices
// q[..., rotary_dim:] with rotary_dim the whole head): such a result is the
// same whatever the operands hold, so it folds while they are unknown, and
// no plan has to map, store or launch over an empty tensor.
bool producesNothing(const Node& node) {
  return node.numOutputs() > 0 && std::all_of(node.outputs().begin(), node.outputs().end(), [](const Value* out) {
           return out && out->type().numElements() == 0;
         });
}

bool isFoldable(const Node& node, const FoldOptions& options) {
  for (const Value* out : node.outputs()) {
    if (out->isGraphOutput()) return false;
    // A Constant node's value is in the graph already: folding it costs nothing.
    if (!node.op().foldsAtAnySize && largerThan(out->type(), options.maxFoldBytes)) return false;
  }
  if (readsOnlyOperandType(node) || producesNothing(node)) return true;
  return std::all_of(node.inputs().begin(), node.inputs().end(),
                     [](const Value* in) { return !in || in->isConstant(); });
}

std::vector<Tensor> evaluate(const Node& node) {
  if (producesNothing(node)) {
    std::vector<Tensor> empty;
    for (const Value* out : node.outputs()) empty.emplace_back(out->type());
    return empty;
  }
  bool allConstant =
      std::all_of(node.inputs().begin(), node.inputs().end(), [](const Value* in) { return !in || in->isConstant(); });
  if (!allConstant) return {node.op().resultFromTypes(node)};
  std::vector<const Tensor*> operands;
  for (const Value* in : node.inputs()) operands.push_back(in ? &in->constant() : nullptr);
  return evaluateNode(node, operands);
}

// Each result becomes a constant under its own name: its uses move to a
// stand-in while the node is erased, then back to the result, now constant.
void fold(Graph& graph, Node& node) {
  std::vector<Tensor> results = evaluate(node);
  std::vector<std::pair<Value*, Value*>> standIns;
  for (size_t i = 0; i < node.numOutputs(); ++i) {
    Value* out = node.output(i);
    TCX_CHECK(results[i].type() == out->type(), ErrorKind::Internal, "folding gives {} for result '{}' of type {}",
              results[i].type().toString(), out->name(), out->type().toString());
    Value* standIn = graph.addConstant(out->name(), results[i]);
    graph.replaceAllUsesWith(out, standIn);
    standIns.emplace_back(out, standIn);
  }
  graph.eraseNode(&node);
  for (auto& [out, standIn] : standIns) {
    out->setConstant(standIn->constant());
    graph.replaceAllUsesWith(standIn, out);
  }
}

} // namespace

void inferAndFold(Graph& graph, const FoldOptions& options) {
  graph.topologicalSort();
  for (Node* node : graph.nodes()) {
    try {
      inferNode(*node);
      if (options.fold && isFoldable(*node, options)) fold(graph, *node);
    } catch (const Error& e) {
      throw e.withContext(node->describe());
    }
  }
  graph.eraseUnusedValues();
}

} // namespace tcx
