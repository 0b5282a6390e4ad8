#include "view/LatencyHeat.h"

#include "view/ItemLinks.h"

#include <algorithm>

namespace tcx::view {

std::map<ItemRef, double> kernelHeat(const ExecPlan& plan, const PlanLatency& latency) {
  std::map<ItemRef, double> heat;
  double slowest = 0;
  for (const KernelEstimate& k : latency.perKernel) slowest = std::max(slowest, k.seconds);
  if (slowest <= 0) return heat;
  for (size_t i = 0; i < plan.kernels.size() && i < latency.perKernel.size(); ++i) {
    const double h = latency.perKernel[i].seconds / slowest;
    heat[kernelRef(plan.kernels[i])] = h;
    for (const Node* n : plan.kernels[i].fused->nodes) heat[{ItemKind::Node, n->name()}] = h;
  }
  return heat;
}

} // namespace tcx::view
