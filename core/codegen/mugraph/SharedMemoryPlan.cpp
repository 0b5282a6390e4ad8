#include "codegen/mugraph/SharedMemoryPlan.h"

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

SharedMemoryPlan planSharedMemory(const mugraph::PartitionedGraph& body) {
  const std::vector<mugraph::Operator>& ops = body.ops();
  SharedMemoryPlan plan;
  for (int a : body.outputAccumulators()) {
    plan.accumulatorOffsets.push_back(plan.bytes);
    plan.bytes += aligned(numElements(accumulatorBlockShape(body, ops[a])) * int64_t(sizeof(float)));
  }
  const int64_t tensorsStart = plan.bytes;

  // A Reshape's uses are uses of the tensor it views.
  std::vector<std::vector<TensorRef>> root(ops.size());
  std::vector<std::vector<Interval>> life(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    for (size_t j = 0; j < ops[i].outputs.size(); ++j) {
      TensorRef self{int(i), int(j)};
      root[i].push_back(ops[i].type == OpType::Reshape ? root[ops[i].inputs[0].op][ops[i].inputs[0].output] : self);
      life[i].push_back({int64_t(i), int64_t(i), 0,
                         aligned(numElements(ops[i].outputs[j].shape) * int64_t(dtypeSize(ops[i].outputs[j].dtype)))});
    }
    for (TensorRef t : ops[i].inputs) {
      TensorRef r = root[t.op][t.output];
      life[r.op][r.output].last = int64_t(i);
    }
  }

  // First fit, in definition order, among the tensors already placed that
  // are alive at the same time.
  std::vector<const Interval*> placed;
  plan.offsets.resize(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
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
