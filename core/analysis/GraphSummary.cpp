#include "analysis/GraphSummary.h"
#include "ops/OpDef.h"

#include <algorithm>

namespace tcx {

const char* tensorKindName(TensorSummary::Kind kind) {
  switch (kind) {
  case TensorSummary::Kind::Input: return "input";
  case TensorSummary::Kind::Output: return "output";
  case TensorSummary::Kind::Constant: return "constant";
  case TensorSummary::Kind::Intermediate: return "intermediate";
  }
  return "?";
}

GraphSummary summarizeGraph(const Graph& graph) {
  GraphSummary s;
  s.graphName = graph.name;
  s.numNodes = graph.numNodes();
  std::map<std::string, OpCount> counts;
  for (const Value* in : graph.inputs()) {
    s.tensors.push_back({in->name(), in->type(), in->isGraphOutput() ? TensorSummary::Kind::Output : TensorSummary::Kind::Input, ""});
    s.inputBytes += in->type().byteSize();
  }
  for (const Node* node : graph.nodes()) {
    OpCount& c = counts[node->opType()];
    c.opType = node->opType();
    c.dataMovement = node->op().isDataMovement();
    ++c.count;
    if (node->op().isDataMovement()) ++s.numDataMovementNodes;
    for (const Value* out : node->outputs()) {
      bool isOutput = out->isGraphOutput();
      s.tensors.push_back({out->name(), out->type(), isOutput ? TensorSummary::Kind::Output : TensorSummary::Kind::Intermediate,
                           node->name()});
      (isOutput ? s.outputBytes : s.intermediateBytes) += out->type().byteSize();
    }
  }
  for (const Value* v : graph.values())
    if (v->isConstant() && !v->producer()) {
      s.tensors.push_back({v->name(), v->type(), TensorSummary::Kind::Constant, ""});
      s.constantBytes += v->type().byteSize();
    }
  for (auto& [name, c] : counts) s.ops.push_back(c);
  std::stable_sort(s.ops.begin(), s.ops.end(), [](const OpCount& a, const OpCount& b) { return a.count > b.count; });
  return s;
}

} // namespace tcx
