#include "plan/BufferPlanner.h"

#include "plan/ExecPlan.h"

#include <algorithm>

namespace tcx {

namespace {
constexpr int64_t kAlignment = 256;
int64_t alignUp(int64_t v) { return (v + kAlignment - 1) / kAlignment * kAlignment; }
} // namespace

void planBuffers(ExecPlan& plan) {
  auto touch = [&](int buffer, int kernel) {
    PlanBuffer& b = plan.buffers[buffer];
    if (b.firstKernel < 0) b.firstKernel = kernel;
    b.firstKernel = std::min(b.firstKernel, kernel);
    b.lastKernel = std::max(b.lastKernel, kernel);
  };
  for (const PlanKernel& k : plan.kernels) {
    for (const auto* accesses : {&k.inputs, &k.outputs, &k.copyFrom})
      for (const TensorAccess& a : *accesses)
        for (int b : a.buffers) touch(b, k.id);
  }

  plan.externalBytes = 0;
  std::vector<PlanBuffer*> intermediates;
  for (PlanBuffer& b : plan.buffers) {
    if (b.kind == PlanBuffer::Kind::Intermediate)
      intermediates.push_back(&b);
    else
      plan.externalBytes += b.bytes;
  }
  // Larger buffers first within the same start, as arena planners do.
  std::sort(intermediates.begin(), intermediates.end(), [](const PlanBuffer* a, const PlanBuffer* b) {
    return a->firstKernel != b->firstKernel ? a->firstKernel < b->firstKernel : a->bytes > b->bytes;
  });
  struct Placed {
    int64_t offset, end;
    int lastKernel;
  };
  std::vector<Placed> placed;
  plan.arenaBytes = 0;
  for (PlanBuffer* b : intermediates) {
    // Live neighbours at b's start, by offset; take the first gap that fits.
    std::vector<Placed> live;
    for (const Placed& p : placed)
      if (p.lastKernel >= b->firstKernel) live.push_back(p);
    std::sort(live.begin(), live.end(), [](const Placed& x, const Placed& y) { return x.offset < y.offset; });
    int64_t offset = 0, size = alignUp(std::max<int64_t>(b->bytes, 1));
    for (const Placed& p : live) {
      if (offset + size <= p.offset) break;
      offset = std::max(offset, p.end);
    }
    b->arenaOffset = offset;
    placed.push_back({offset, offset + size, b->lastKernel});
    plan.arenaBytes = std::max(plan.arenaBytes, offset + size);
  }
}

} // namespace tcx
