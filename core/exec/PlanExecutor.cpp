#include "exec/PlanExecutor.h"

#include "exec/AccessCopy.h"
#include "ops/Evaluate.h"

#include <unordered_map>

namespace tcx {

namespace {

void runCompute(const PlanKernel& k, std::vector<Tensor>& buffers) {
  std::unordered_map<const Value*, Tensor> local;
  for (const TensorAccess& a : k.inputs) {
    Tensor t(a.value->type());
    gatherAccess(a, buffers, t);
    local.emplace(a.value, std::move(t));
  }
  for (const Node* node : k.fused->nodes) {
    std::vector<const Tensor*> operands(node->numInputs(), nullptr);
    for (size_t i = 0; i < node->numInputs(); ++i) {
      const Value* in = node->input(i);
      if (!in) continue;
      auto it = local.find(in);
      operands[i] = it != local.end() ? &it->second : &in->constant();
    }
    std::vector<Tensor> results;
    try {
      results = evaluateNode(*node, operands);
    } catch (const Error& e) {
      throw e.withContext(node->describe());
    }
    for (size_t i = 0; i < results.size(); ++i) local[node->output(i)] = std::move(results[i]);
  }
  for (const TensorAccess& a : k.outputs) scatterAccess(a, buffers, local.at(a.value));
}

} // namespace

std::vector<Tensor> runPlan(const ExecPlan& plan, const std::map<std::string, Tensor>& inputs) {
  std::vector<Tensor> buffers;
  buffers.reserve(plan.buffers.size());
  for (const PlanBuffer& b : plan.buffers) {
    switch (b.kind) {
    case PlanBuffer::Kind::Input: {
      auto it = inputs.find(b.tensor->name());
      TCX_CHECK(it != inputs.end(), ErrorKind::InvalidArgument, "no value given for graph input '{}'", b.tensor->name());
      TCX_CHECK(it->second.type() == b.tensor->type(), ErrorKind::InvalidArgument, "graph input '{}' is {} but {} was given",
                b.tensor->name(), b.tensor->type().toString(), it->second.type().toString());
      buffers.push_back(it->second.clone());
      break;
    }
    case PlanBuffer::Kind::Constant: buffers.push_back(b.tensor->constant()); break;
    case PlanBuffer::Kind::Output:
    case PlanBuffer::Kind::Intermediate: buffers.emplace_back(b.tensor->type()); break;
    }
  }
  for (const PlanKernel& k : plan.kernels) {
    if (k.kind == PlanKernel::Kind::CopyRegions) {
      for (size_t i = 0; i < k.outputs.size(); ++i) copyRegion(k.copyFrom[i], k.outputs[i], buffers);
    } else {
      runCompute(k, buffers);
    }
  }
  std::vector<Tensor> outputs;
  const Graph& graph = plan.kernelGraph->graph();
  for (const Value* out : graph.outputs()) {
    if (out->isConstant()) {
      outputs.push_back(out->constant());
      continue;
    }
    int b = plan.bufferOf(out);
    TCX_CHECK(b >= 0, ErrorKind::Internal, "graph output '{}' has no buffer in the plan", out->name());
    outputs.push_back(buffers[b].reshaped(out->type().shape));
  }
  return outputs;
}

} // namespace tcx
