#include "codegen/mugraph/SharedMemoryPlan.h"

#include "mugraph/LoopPhase.h"
#include "mugraph/Partition.h"

#include <algorithm>

namespace tcx::mugraphcuda {

using mugraph::OpType;
using mugraph::TensorRef;

namespace {

constexpr int64_t kAlign = 16;

int64_t aligned(int64_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

struct Interval {
  int64_t first = 0, last = 0; // operator positions
  int64_t offset = 0, bytes = 0;
  bool overlapsInTime(const Interval& o) const { return first <= o.last && o.first <= last; }
};

} // namespace

bool needsStorage(OpType type) {
  return type != OpType::Reshape && type != OpType::Constant && type != OpType::OutputAccumulator;
}

Shape accumulatorBlockShape(const mugraph::PartitionedGraph& body, const mugraph::Operator& op) {
  return mugraph::splitShape(op.outputs[0].shape, body.gridDims(), op.omap, false, "omap");
}

std::vector<int> schedule(const mugraph::PartitionedGraph& body) {
  std::vector<mugraph::LoopPhase> phases = mugraph::loopPhases(body);
  std::vector<int> order;
  for (mugraph::LoopPhase phase : {mugraph::LoopPhase::Invariant, mugraph::LoopPhase::Body, mugraph::LoopPhase::After})
    for (size_t i = 0; i < body.ops().size(); ++i)
      if (mugraph::runsIn(body.ops()[i], phases[i]) == phase) order.push_back(static_cast<int>(i));
  return order;
}

SharedMemoryPlan planSharedMemory(const mugraph::PartitionedGraph& body) {
  const std::vector<mugraph::Operator>& ops = body.ops();
  SharedMemoryPlan plan;
  plan.offsets.resize(ops.size());
  for (int a : body.outputAccumulators()) {
    plan.accumulatorOffsets.push_back(plan.bytes);
    plan.bytes += aligned(numElements(accumulatorBlockShape(body, ops[a])) * int64_t(sizeof(float)));
  }
  // For-loop accumulations are summed into across the whole loop.
  for (size_t i = 0; i < ops.size(); ++i)
    if (mugraph::isForLoopAccumulation(ops[i].type)) {
      plan.offsets[i].push_back(plan.bytes);
      plan.bytes += aligned(numElements(ops[i].outputs[0].shape) * int64_t(sizeof(float)));
    }
  const int64_t tensorsStart = plan.bytes;

  // Positions in the order the code runs the operators. A tensor that a
  // Body operator reads but an earlier phase wrote stays live to the end of
  // the Body, which reads it again in every iteration.
  std::vector<mugraph::LoopPhase> phases = mugraph::loopPhases(body);
  std::vector<int> order = schedule(body);
  std::vector<int64_t> at(ops.size());
  int64_t bodyEnd = -1;
  for (size_t p = 0; p < order.size(); ++p) {
    at[static_cast<size_t>(order[p])] = int64_t(p);
    if (mugraph::runsIn(ops[order[p]], phases[order[p]]) == mugraph::LoopPhase::Body) bodyEnd = int64_t(p);
  }

  // A Reshape's uses are uses of the tensor it views.
  std::vector<std::vector<TensorRef>> root(ops.size());
  std::vector<std::vector<Interval>> life(ops.size());
  for (int i : order) {
    for (size_t j = 0; j < ops[i].outputs.size(); ++j) {
      TensorRef self{i, int(j)};
      root[i].push_back(ops[i].type == OpType::Reshape ? root[ops[i].inputs[0].op][ops[i].inputs[0].output] : self);
      life[i].push_back({at[i], at[i], 0,
                         aligned(numElements(ops[i].outputs[j].shape) * int64_t(dtypeSize(ops[i].outputs[j].dtype)))});
    }
    bool inBody = mugraph::runsIn(ops[i], phases[i]) == mugraph::LoopPhase::Body;
    for (TensorRef t : ops[i].inputs) {
      TensorRef r = root[t.op][t.output];
      Interval& l = life[r.op][r.output];
      bool fromBefore = inBody && mugraph::runsIn(ops[r.op], phases[r.op]) != mugraph::LoopPhase::Body;
      l.last = std::max(l.last, fromBefore ? bodyEnd : at[i]);
    }
  }

  // First fit, in schedule order, among the tensors already placed that are
  // alive at the same time.
  std::vector<const Interval*> placed;
  for (int i : order) {
    if (mugraph::isForLoopAccumulation(ops[i].type)) continue;
    for (Interval& t : life[i]) {
      if (!needsStorage(ops[i].type)) {
        plan.offsets[i].push_back(-1);
        continue;
      }
      std::vector<const Interval*> live;
      for (const Interval* p : placed)
        if (p->overlapsInTime(t)) live.push_back(p);
      std::sort(live.begin(), live.end(), [](const Interval* a, const Interval* b) { return a->offset < b->offset; });
      t.offset = tensorsStart;
      for (const Interval* p : live)
        if (t.offset + t.bytes > p->offset) t.offset = std::max(t.offset, p->offset + p->bytes);
      placed.push_back(&t);
      plan.offsets[i].push_back(t.offset);
      plan.bytes = std::max(plan.bytes, t.offset + t.bytes);
    }
  }
  return plan;
}

} // namespace tcx::mugraphcuda
