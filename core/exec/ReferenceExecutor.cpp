#include "exec/ReferenceExecutor.h"

#include "ops/Evaluate.h"

#include <chrono>
#include <unordered_map>

namespace tcx {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
} // namespace

ReferenceExecutor::ReferenceExecutor(const Graph& graph) : graph_(graph), order_(graph.nodes()) {
  std::unordered_map<const Value*, size_t> lastUse;
  for (size_t i = 0; i < order_.size(); ++i)
    for (const Value* in : order_[i]->inputs())
      if (in && !in->isConstant() && !in->isGraphInput()) lastUse[in] = i;
  releaseAfter_.resize(order_.size());
  for (const auto& [value, index] : lastUse)
    if (!value->isGraphOutput()) releaseAfter_[index].push_back(value);
}

ExecutionResult ReferenceExecutor::run(const std::map<std::string, Tensor>& inputs, const ProgressFn& progress) const {
  auto start = Clock::now();
  ExecutionResult result;
  std::unordered_map<const Value*, Tensor> live;
  for (const Value* in : graph_.inputs()) {
    auto it = inputs.find(in->name());
    TCX_CHECK(it != inputs.end(), ErrorKind::InvalidArgument, "no value given for graph input '{}'", in->name());
    TCX_CHECK(it->second.type() == in->type(), ErrorKind::InvalidArgument, "graph input '{}' is {} but {} was given",
              in->name(), in->type().toString(), it->second.type().toString());
    live.emplace(in, it->second);
  }
  for (const auto& [name, tensor] : inputs)
    TCX_CHECK(graph_.findValue(name) && graph_.findValue(name)->isGraphInput(), ErrorKind::InvalidArgument,
              "'{}' is not an input of the graph", name);

  size_t liveBytes = 0;
  for (size_t i = 0; i < order_.size(); ++i) {
    const Node& node = *order_[i];
    if (progress) progress(i, order_.size(), node.name());
    std::vector<const Tensor*> operands(node.numInputs(), nullptr);
    for (size_t k = 0; k < node.numInputs(); ++k) {
      const Value* in = node.input(k);
      if (!in) continue;
      operands[k] = in->isConstant() ? &in->constant() : &live.at(in);
    }
    auto t0 = Clock::now();
    std::vector<Tensor> outputs;
    try {
      outputs = evaluateNode(node, operands);
    } catch (const Error& e) {
      throw e.withContext(node.describe());
    }
    result.timings.push_back({&node, secondsSince(t0)});
    for (size_t k = 0; k < outputs.size(); ++k) {
      liveBytes += outputs[k].byteSize();
      live[node.output(k)] = std::move(outputs[k]);
    }
    result.peakBytes = std::max(result.peakBytes, liveBytes);
    for (const Value* dead : releaseAfter_[i]) {
      liveBytes -= live.at(dead).byteSize();
      live.erase(dead);
    }
    // Results nobody reads (optional outputs, dead code) are dropped at once.
    for (const Value* out : node.outputs())
      if (out->uses().empty() && !out->isGraphOutput()) {
        liveBytes -= live.at(out).byteSize();
        live.erase(out);
      }
  }
  if (progress) progress(order_.size(), order_.size(), "");
  for (const Value* out : graph_.outputs())
    result.outputs.push_back(out->isConstant() ? out->constant() : live.at(out));
  result.seconds = secondsSince(start);
  return result;
}

} // namespace tcx
