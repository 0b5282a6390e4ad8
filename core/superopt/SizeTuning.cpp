#include "superopt/SizeTuning.h"

#include "mugraph/Validate.h"
#include "superopt/MuGraphCost.h"
#include "support/Error.h"

#include <optional>

namespace tcx::superopt {

using namespace mugraph;

namespace {

std::vector<int64_t> nonUnit(const Shape& shape) {
  std::vector<int64_t> dims;
  for (int64_t d : shape)
    if (d != 1) dims.push_back(d);
  return dims;
}

// `op` of `original`, its size-dependent attributes adapted to its operands
// in `resized` (same operator indices): a Sum still reduces its whole
// dimension, and a Reshape that moves unit dimensions still moves them. A
// Reshape to the program's output shape keeps its target.
Operator adapted(const OperatorGraph& original, const Operator& op, const OperatorGraph& resized) {
  Operator out = op;
  out.outputs.clear();
  if (op.type != OpType::Sum && op.type != OpType::Reshape) return out;
  const Shape& before = original.desc(op.inputs[0]).shape;
  const Shape& now = resized.desc(op.inputs[0]).shape;
  if (op.type == OpType::Sum) {
    if (op.group == before.at(static_cast<size_t>(op.dim))) out.group = now.at(static_cast<size_t>(op.dim));
    return out;
  }
  if (nonUnit(before) != nonUnit(op.shape)) return out;
  std::vector<int64_t> dims = nonUnit(now);
  if (dims.size() != nonUnit(before).size()) return out; // the append will say why it does not fit
  size_t next = 0;
  for (int64_t& d : out.shape)
    if (d != 1) d = dims[next++];
  return out;
}

class Tuner {
public:
  Tuner(const KernelGraph& graph, const AxisAnalysis& axes, const PartitionLimits& limits, const GpuPreset& preset,
        const Deadline& deadline, int maxVariants)
      : graph_(graph), axes_(axes), limits_(limits), preset_(preset), deadline_(deadline), maxVariants_(maxVariants) {}

  SizeTuning run() {
    best_.graph = graph_;
    best_.estimatedMicros = estimateCost(graph_, preset_).micros;
    extend(KernelGraph(graph_.name()), 0);
    return std::move(best_);
  }

private:
  void extend(KernelGraph g, size_t i) {
    if (best_.variants >= maxVariants_) return;
    if (i == graph_.ops().size()) {
      finish(std::move(g));
      return;
    }
    const Operator& op = graph_.ops()[i];
    try {
      if (op.type != OpType::GraphDefined) {
        g.append(adapted(graph_, op, g));
        extend(std::move(g), i + 1);
        return;
      }
      // Only a graph-defined operator has sizes to choose.
      if (outOfTime()) return;
      for (std::shared_ptr<const PartitionedGraph> body : bodies(g, op)) {
        if (outOfTime()) return;
        KernelGraph next = g;
        Operator resized = op;
        resized.outputs.clear();
        resized.body = std::move(body);
        next.append(std::move(resized));
        extend(std::move(next), i + 1);
      }
    } catch (const Error&) {
      // This combination does not build; the others may.
    }
  }

  // Whether the deadline has passed; the tuning is then cut.
  bool outOfTime() {
    best_.cut = best_.cut || deadline_.passed();
    return best_.cut;
  }

  void finish(KernelGraph g) {
    for (TensorRef t : graph_.outputs()) {
      if (g.desc(t).shape != graph_.desc(t).shape) return;
      g.markOutput(t);
    }
    ++best_.variants;
    double micros = estimateCost(g, preset_).micros;
    if (micros < best_.estimatedMicros) {
      best_.graph = std::move(g);
      best_.estimatedMicros = micros;
    }
  }

  // Op's block graph rebuilt on every partition of its size class over its
  // operands in `g`.
  std::vector<std::shared_ptr<const PartitionedGraph>> bodies(const KernelGraph& g, const Operator& op) const {
    const PartitionedGraph& original = *op.body;
    AxisAnalysis::Labelled labels = axes_.label(g);
    std::vector<const TensorLabels*> operandLabels;
    std::vector<TensorDesc> descs;
    for (TensorRef t : op.inputs) {
      if (!labels.of(t)) return {op.body};
      operandLabels.push_back(&*labels.of(t));
      descs.push_back(g.desc(t));
    }
    for (size_t j = 0; j < descs.size(); ++j)
      if (original.op(static_cast<int>(j)).type != OpType::InputIterator ||
          original.op(static_cast<int>(j)).inputIndex != static_cast<int>(j))
        return {op.body}; // not built by the search: kept as it is
    const std::string cls = sizeClass(original);
    std::vector<std::shared_ptr<const PartitionedGraph>> out;
    for (const GraphPartition& p : enumeratePartitions(labels.unifier, operandLabels, limits_)) {
      try {
        BlockGraph body = partitionInputs(descs, p);
        if (sizeClass(body) != cls) continue;
        for (size_t j = descs.size(); j < original.ops().size(); ++j)
          body.append(adapted(original, original.ops()[j], body));
        if (sharedMemoryBytes(body) <= preset_.sharedMemoryPerBlock)
          out.push_back(std::make_shared<const BlockGraph>(std::move(body)));
      } catch (const Error&) {
        // Shapes that do not fit this partition's sizes.
      }
    }
    return out;
  }

  const KernelGraph& graph_;
  const AxisAnalysis& axes_;
  const PartitionLimits& limits_;
  const GpuPreset& preset_;
  const Deadline& deadline_;
  int maxVariants_;
  SizeTuning best_;
};

} // namespace

SizeTuning tuneSizes(const KernelGraph& graph, const AxisAnalysis& axes, const PartitionLimits& limits,
                     const GpuPreset& preset, const Deadline& deadline, int maxVariants) {
  return Tuner(graph, axes, limits, preset, deadline, maxVariants).run();
}

} // namespace tcx::superopt
