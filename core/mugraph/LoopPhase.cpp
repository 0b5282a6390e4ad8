#include "mugraph/LoopPhase.h"

#include "mugraph/MuGraph.h"
#include "support/Error.h"

#include <algorithm>
#include <fmt/format.h>

namespace tcx::mugraph {

bool isForLoopAccumulation(OpType type) { return type == OpType::ForLoopSum || type == OpType::ForLoopRms; }

namespace {
bool has(std::span<const LoopPhase> phases, LoopPhase p) { return std::ranges::find(phases, p) != phases.end(); }
bool allReplica(const DimMap& map) {
  return std::ranges::all_of(map, [](int m) { return m == kReplica; });
}
} // namespace

std::optional<std::string> phaseConflict(const Operator& op, std::span<const LoopPhase> operands) {
  if (isForLoopAccumulation(op.type) && has(operands, LoopPhase::After))
    return fmt::format("{} accumulates a tensor that exists only after the loop", opTypeName(op.type));
  if (op.type == OpType::OutputAccumulator && has(operands, LoopPhase::After) && !allReplica(op.fmap))
    return "OutputAccumulator stores a tensor computed after the loop, so its fmap must be φ on every for-loop dim";
  if (has(operands, LoopPhase::Body) && has(operands, LoopPhase::After))
    return fmt::format("{} mixes a tensor of one for-loop iteration with one computed after the loop",
                       opTypeName(op.type));
  return std::nullopt;
}

LoopPhase phaseOf(const Operator& op, std::span<const LoopPhase> operands) {
  if (std::optional<std::string> why = phaseConflict(op, operands)) raise(ErrorKind::InvalidModel, "{}", *why);
  switch (op.type) {
  case OpType::Constant: return LoopPhase::Invariant;
  case OpType::InputIterator: return allReplica(op.fmap) ? LoopPhase::Invariant : LoopPhase::Body;
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: return LoopPhase::After;
  // The latest phase among the operands (Invariant < Body < After).
  case OpType::Input:
  case OpType::OutputAccumulator:
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::Sum:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::RMSNorm:
  case OpType::Repeat:
  case OpType::Reshape:
  case OpType::GraphDefined: break;
  }
  return operands.empty() ? LoopPhase::Invariant : *std::ranges::max_element(operands);
}

std::vector<LoopPhase> loopPhases(const PartitionedGraph& graph) {
  std::vector<LoopPhase> phases;
  phases.reserve(graph.ops().size());
  std::vector<LoopPhase> operands;
  for (const Operator& op : graph.ops()) {
    operands.clear();
    for (TensorRef t : op.inputs) operands.push_back(phases.at(static_cast<size_t>(t.op)));
    phases.push_back(phaseOf(op, operands));
  }
  return phases;
}

int64_t rmsCount(const PartitionedGraph& graph, const Operator& op) {
  return graph.desc(op.inputs.at(0)).shape.back() * graph.numIterations();
}

LoopPhase runsIn(const Operator& op, LoopPhase outputs) {
  if (isForLoopAccumulation(op.type)) return LoopPhase::Body;
  if (op.type == OpType::OutputAccumulator && outputs == LoopPhase::Invariant) return LoopPhase::Body;
  return outputs;
}

} // namespace tcx::mugraph
