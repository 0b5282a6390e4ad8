#include "GpuCheck.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "profiler/VendorSelection.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

namespace tcx::test {

namespace {

// Every alternative measured (or read from the cache) reports both forms'
// times, and the form preferVendor picks from them is the one that runs.
void requireChoicesAsTimed(const gpu::GpuPlan& onGpu) {
  size_t timed = 0, vendor = 0;
  for (const VendorAlternative& a : onGpu.code().vendorAlternatives) {
    std::optional<gpu::VendorChoice> choice = onGpu.vendorChoice(a.planKernel);
    if (!choice) continue; // the library refused the call
    ++timed;
    vendor += choice->vendor;
    CHECK(choice->generatedUs > 0);
    CHECK(choice->vendorUs > 0);
    CHECK(choice->vendor == gpu::preferVendor(choice->vendorUs, choice->generatedUs));
  }
  CHECK(timed > 0);
  CHECK(vendor == onGpu.vendorCallsChosen());
}

} // namespace

void requireMatchesReference(const VtcSession& session, const ExecPlan& plan, uint64_t seed, VendorPolicy vendor) {
  auto inputs = randomInputs(session.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(session.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  gpu::GpuPlan onGpu(plan, generateCuda(plan, gpu::gpuInfo().codegenTarget()), compiler);
  onGpu.setInputs(inputs);
  if (vendor != VendorPolicy::Never) {
    onGpu.chooseVendorCalls(vendor);
    if (vendor == VendorPolicy::Always) REQUIRE(onGpu.vendorCallsChosen() == onGpu.code().vendorAlternatives.size());
    if (vendor == VendorPolicy::Measure) requireChoicesAsTimed(onGpu);
    onGpu.setInputs(inputs); // choosing ran the plan
  }
  onGpu.poison();
  std::vector<Tensor> got = onGpu.run();
  REQUIRE(got.size() == ref.outputs.size());
  const GpuCheck check = checkGpuOutputs(session.graph(), got, ref.outputs);
  INFO(check.describe());
  CHECK(check.passed);
  // Again as the profiler times it: each kernel launched as the one before it
  // ends, kept in order only by each kernel's wait for the one before it.
  onGpu.setInputs(inputs);
  onGpu.poison();
  const GpuCheck overlapped = checkGpuOutputs(session.graph(), onGpu.runEnqueued(), ref.outputs);
  INFO("launched as timed: " << overlapped.describe());
  CHECK(overlapped.passed);
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
