#include "GpuCheck.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

namespace tcx::test {

void requireMatchesReference(const VtcSession& session, const ExecPlan& plan, uint64_t seed, VendorPolicy vendor) {
  auto inputs = randomInputs(session.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(session.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  gpu::GpuPlan onGpu(plan, generateCuda(plan, gpu::gpuInfo().codegenTarget()), compiler);
  onGpu.setInputs(inputs);
  if (vendor != VendorPolicy::Never) {
    onGpu.chooseVendorCalls(vendor);
    if (vendor == VendorPolicy::Always) REQUIRE(onGpu.vendorCallsChosen() == onGpu.code().vendorAlternatives.size());
    onGpu.setInputs(inputs); // choosing ran the plan
  }
  onGpu.poison();
  std::vector<Tensor> got = onGpu.run();
  REQUIRE(got.size() == ref.outputs.size());
  const GpuCheck check = checkGpuOutputs(session.graph(), got, ref.outputs);
  INFO(check.describe());
  CHECK(check.passed);
}

void requirePlansMatchReference(Graph graph, uint64_t seed, VendorPolicy vendor, PlanOptions options) {
  VtcSession s(std::move(graph), defaultGpuPreset(), options);
  s.select(EdgeConstraintSpecs{});
  {
    INFO("baseline plan");
    requireMatchesReference(s, s.baselinePlan(), seed, vendor);
  }
  INFO("optimised plan");
  requireMatchesReference(s, s.optimizedPlan(), seed + 1, vendor);
}

} // namespace tcx::test
