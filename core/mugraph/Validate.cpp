#include "mugraph/Validate.h"

#include "mugraph/LoopPhase.h"
#include "mugraph/Partition.h"

#include <fmt/format.h>

namespace tcx::mugraph {

namespace {

constexpr int64_t kMaxThreadsPerBlock = 1024;

// A register holds one value whatever its width, so thread graphs count
// 4-byte words; shared memory counts the dtype's bytes.
int64_t tensorBytes(const PartitionedGraph& g, bool inWords) {
  auto bytesOf = [&](const Shape& shape, DType dtype) {
    return numElements(shape) * (inWords ? 4 : static_cast<int64_t>(dtypeSize(dtype)));
  };
  int64_t bytes = 0;
  for (const Operator& op : g.ops()) {
    if (op.type == OpType::OutputAccumulator) {
      bytes += bytesOf(splitShape(op.outputs[0].shape, g.gridDims(), op.omap, false, "omap"), op.outputs[0].dtype);
      continue;
    }
    if (isForLoopAccumulation(op.type)) { // summed in float
      bytes += bytesOf(op.outputs[0].shape, DType::F32);
      continue;
    }
    for (const TensorDesc& d : op.outputs) bytes += bytesOf(d.shape, d.dtype);
  }
  return bytes;
}

void checkConsumed(const OperatorGraph& g, const std::string& where, Validation& v) {
  std::vector<bool> used(g.ops().size(), false);
  for (const Operator& op : g.ops())
    for (TensorRef t : op.inputs) used[t.op] = true;
  if (const auto* k = asKernel(g))
    for (TensorRef t : k->outputs()) used[t.op] = true;
  for (size_t i = 0; i < g.ops().size(); ++i) {
    OpType type = g.ops()[i].type;
    if (!used[i] && type != OpType::OutputAccumulator && type != OpType::Input)
      v.problems.push_back(fmt::format("{}op {} ({}): its result is never used", where, i, opTypeName(type)));
  }
}

void validateLevel(const OperatorGraph& g, const GpuPreset& preset, const std::string& where, Validation& v) {
  checkConsumed(g, where, v);
  if (const auto* p = asPartitioned(g)) {
    if (p->outputAccumulators().empty()) v.problems.push_back(where + "no output accumulator");
    if (g.level() == Level::Block) {
      int64_t bytes = sharedMemoryBytes(*p);
      if (bytes > preset.sharedMemoryPerBlock)
        v.problems.push_back(fmt::format("{}needs {} bytes of shared memory; {} allows {}", where, bytes, preset.name,
                                         preset.sharedMemoryPerBlock));
    } else {
      int64_t words = registerWords(*p), threads = p->numPartitions();
      if (words > preset.registersPerThread)
        v.problems.push_back(fmt::format("{}needs {} registers per thread; {} allows {}", where, words, preset.name,
                                         preset.registersPerThread));
      if (threads > kMaxThreadsPerBlock)
        v.problems.push_back(
            fmt::format("{}has {} threads; a block holds at most {}", where, threads, kMaxThreadsPerBlock));
    }
  }
  for (size_t i = 0; i < g.ops().size(); ++i)
    if (const auto& body = g.ops()[i].body)
      validateLevel(*body, preset, fmt::format("{}op {} ({} graph): ", where, i, levelName(body->level())), v);
}

} // namespace

int64_t sharedMemoryBytes(const PartitionedGraph& block) { return tensorBytes(block, false); }
int64_t registerWords(const PartitionedGraph& thread) { return tensorBytes(thread, true) / 4; }

Validation validate(const KernelGraph& graph, const GpuPreset& preset) {
  Validation v;
  if (graph.outputs().empty()) v.problems.push_back(fmt::format("μGraph '{}' has no outputs", graph.name()));
  validateLevel(graph, preset, "", v);
  return v;
}

} // namespace tcx::mugraph
