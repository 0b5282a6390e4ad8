#include "backend/GpuBackend.h"

namespace tcx::backend {

std::string checkVerdict(const MeasuredLatency& measured) {
  std::string verdicts;
  for (const auto& [plan, check] : {std::pair{"baseline", &measured.baselineCheck}, {"optimised", &measured.optimizedCheck}})
    if (*check) verdicts += (verdicts.empty() ? "" : "; ") + std::string(plan) + " " + (*check)->describe();
  return verdicts.empty() ? verdicts : "GPU outputs checked against the CPU reference: " + verdicts + ".";
}

} // namespace tcx::backend
