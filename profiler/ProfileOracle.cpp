#include "profiler/ProfileOracle.h"

#include "codegen/CudaCodegen.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "vt/PointsToGraph.h"

namespace tcx::gpu {

ProfileOracle::ProfileOracle(const KernelGraph& kernels, const Vtog& vtog, PlanOptions options, int repetitions)
    : kernels_(kernels), vtog_(vtog), options_(options) {
  requireGpu();
  timer_.repetitions = repetitions;
  inputs_ = randomInputs(kernels.graph(), 1);
}

double ProfileOracle::latency(const std::set<int>& selected) {
  if (auto it = measured_.find(selected); it != measured_.end()) return it->second;
  PointsToGraph strategy(vtog_, selected);
  ExecPlan plan = lowerToPlan(kernels_, strategy, options_);
  GpuPlan onGpu(plan, generateCuda(plan, {.smCount = gpuInfo().smCount}), compiler_);
  onGpu.setInputs(inputs_);
  const double seconds = onGpu.time(timer_).total.medianUs * 1e-6;
  measured_.emplace(selected, seconds);
  return seconds;
}

std::string ProfileOracle::source() const { return "measured (" + gpuInfo().name + ")"; }

} // namespace tcx::gpu
