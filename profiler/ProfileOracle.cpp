#include "profiler/ProfileOracle.h"

#include "codegen/CudaCodegen.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "profiler/CompileCache.h"
#include "support/AtomicFile.h"
#include "support/Hash.h"
#include "vt/PointsToGraph.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace tcx::gpu {

ProfileOracle::ProfileOracle(const KernelGraph& kernels, const Vtog& vtog, PlanOptions options, int repetitions)
    : kernels_(kernels), vtog_(vtog), options_(options) {
  requireGpu();
  timer_.repetitions = repetitions;
  inputs_ = randomInputs(kernels.graph(), 1);
  if (std::string root = CompileCache::cacheRoot(); !root.empty()) diskCache_ = root + "/latency";
}

double ProfileOracle::latency(const std::set<int>& selected) {
  if (auto it = measured_.find(selected); it != measured_.end()) return it->second;
  PointsToGraph strategy(vtog_, selected);
  ExecPlan plan = lowerToPlan(kernels_, strategy, options_);
  GeneratedPlan code = generateCuda(plan, gpuInfo().codegenTarget());
  const uint64_t key = fnv1a(fmt::format("{}\n{}\n{}", gpuInfo().describe(), timer_.repetitions, code.source));
  const std::string path = diskCache_.empty() ? "" : fmt::format("{}/{:016x}.txt", diskCache_, key);
  double seconds = 0;
  if (std::ifstream in(path); !path.empty() && in >> seconds && seconds > 0) {
    measured_.emplace(selected, seconds);
    return seconds;
  }
  GpuPlan onGpu(plan, std::move(code), compiler_);
  onGpu.setInputs(inputs_);
  seconds = onGpu.time(timer_).total.medianUs * 1e-6;
  measured_.emplace(selected, seconds);
  if (!path.empty()) {
    // A cache that cannot be written costs only a later measurement.
    std::error_code ec;
    std::filesystem::create_directories(diskCache_, ec);
    try {
      writeFileAtomically(path, fmt::format("{:.9g}\n", seconds));
    } catch (const Error&) {
    }
  }
  return seconds;
}

std::string ProfileOracle::source() const { return "measured (" + gpuInfo().name + ")"; }

} // namespace tcx::gpu
