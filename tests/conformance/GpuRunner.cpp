#include "GpuRunner.h"

#include "codegen/CudaCodegen.h"
#include "pipeline/VtcSession.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "target/GpuPreset.h"

namespace tcx::conformance {

std::optional<std::string> gpuUnavailable() {
  const gpu::GpuInfo& info = gpu::gpuInfo();
  if (info.available) return std::nullopt;
  return "no CUDA device: " + info.reason;
}

std::vector<EngineOutputs> runPlansOnGpu(Graph graph, const std::map<std::string, Tensor>& inputs) {
  VtcSession session(std::move(graph), defaultGpuPreset());
  session.select(EdgeConstraintSpecs{});
  // One compiler per call, caching in memory only: calls run on several
  // threads, and each test's modules are its own.
  gpu::NvrtcCompiler compiler("");
  std::vector<EngineOutputs> runs;
  for (const auto& [engine, plan] : {std::pair<const char*, const ExecPlan*>{"baseline plan", &session.baselinePlan()},
                                     {"optimised plan", &session.optimizedPlan()}}) {
    gpu::GpuPlan onGpu(*plan, generateCuda(*plan), compiler);
    onGpu.setInputs(inputs);
    onGpu.poison();
    runs.push_back({engine, onGpu.run()});
  }
  return runs;
}

} // namespace tcx::conformance
