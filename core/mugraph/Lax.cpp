#include "mugraph/Lax.h"

#include <algorithm>
#include <fmt/format.h>

namespace tcx::mugraph {

namespace {

// The most exponentiations on a path from a program input to each output of
// each operator; fills `check` at the first violation.
std::vector<std::vector<int>> expDepths(const OperatorGraph& graph, const std::vector<int>& inputDepths,
                                        const std::string& where, LaxCheck& check) {
  std::vector<std::vector<int>> depth(graph.ops().size());
  for (size_t i = 0; i < graph.ops().size() && check.lax; ++i) {
    const Operator& op = graph.ops()[i];
    std::string name = fmt::format("{}op {} ({})", where, i, opTypeName(op.type));
    if (!opInfo(op.type).lax) {
      check = {false, name + " is not LAX"};
      break;
    }
    int in = op.type == OpType::InputIterator ? inputDepths.at(static_cast<size_t>(op.inputIndex)) : 0;
    for (TensorRef t : op.inputs) in = std::max(in, depth[t.op][t.output]);
    if (op.type != OpType::GraphDefined) {
      depth[i].assign(op.outputs.size(), in + opInfo(op.type).exponentials);
      if (depth[i][0] > 1) check = {false, name + " is a second exponentiation on a path"};
      continue;
    }
    std::vector<int> bodyInputs;
    for (TensorRef t : op.inputs) bodyInputs.push_back(depth[t.op][t.output]);
    auto inner = expDepths(*op.body, bodyInputs, name + ": ", check);
    for (int a : op.body->outputAccumulators()) depth[i].push_back(check.lax ? inner[a][0] : 0);
  }
  return depth;
}

} // namespace

LaxCheck checkLax(const KernelGraph& graph) {
  LaxCheck check;
  expDepths(graph, {}, "", check);
  return check;
}

} // namespace tcx::mugraph
