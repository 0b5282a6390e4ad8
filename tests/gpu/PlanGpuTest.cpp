// Plans on the GPU against the CPU reference executor: every sample at
// reduced shapes, baseline and optimised plans, fresh random inputs,
// outputs poisoned before the run, tolerances per dtype.
#include "Samples.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"
#include "profiler/GpuPlan.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

// GPU and CPU differ in summation order, in transcendental functions and in
// where attention rounds P; errors are measured on the scale of the output
// (exec/Compare.h), a few roundings of its dtype.
double tolerance(DType t) {
  switch (t) {
  case DType::BF16: return 2e-2;
  case DType::F16: return 4e-3;
  case DType::F32: return 1e-4;
  default: return 0;
  }
}

void requireMatchesReference(const VtcSession& s, const ExecPlan& plan, uint64_t seed) {
  auto inputs = randomInputs(s.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  gpu::GpuPlan onGpu(plan, generateCuda(plan), compiler);
  onGpu.setInputs(inputs);
  onGpu.poison();
  std::vector<Tensor> got = onGpu.run();
  REQUIRE(got.size() == ref.outputs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << s.graph().outputs()[i]->name());
    CHECK(scaledError(got[i], ref.outputs[i]) <= tolerance(got[i].dtype()));
  }
}

// The reduced samples, and Llama at head dim 64 with 16-row decode GEMMs: the
// library attention and GEMM paths.
std::vector<std::pair<std::string, Graph>> gpuSamples() {
  std::vector<std::pair<std::string, Graph>> graphs = samples::reducedSamples();
  graphs.emplace_back("llama64", samples::buildLlama3Decode({16, 300, 512, 8, 2, 64, DType::BF16}));
  graphs.emplace_back("llama64-f16", samples::buildLlama3Decode({3, 130, 256, 4, 1, 64, DType::F16}));
  return graphs;
}

} // namespace

TEST_CASE("every sample's baseline and optimised plans match the reference on the GPU", "[gpu]") {
  for (auto& [name, graph] : gpuSamples()) {
    SECTION(name) {
      VtcSession s(std::move(graph), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      {
        INFO("baseline plan");
        requireMatchesReference(s, s.baselinePlan(), 11);
      }
      INFO("optimised plan");
      requireMatchesReference(s, s.optimizedPlan(), 12);
    }
  }
}
