#include "GpuCheck.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/OpDef.h"
#include "profiler/GpuPlan.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

namespace tcx::test {

double gpuTolerance(DType dtype, bool tf32) {
  switch (dtype) {
  case DType::BF16: return 2e-2;
  case DType::F16: return 4e-3;
  case DType::F32: return tf32 ? 4e-3 : 1e-4;
  case DType::F64: return 1e-10;
  case DType::I8:
  case DType::U8:
  case DType::I32:
  case DType::I64:
  case DType::Bool: return 0;
  }
  return 0;
}

bool usesTf32(const Graph& graph) {
  for (const Node* node : graph.nodes()) {
    const FusionRole role = node->op().fusionRole;
    if (role == FusionRole::Convolution || role == FusionRole::TransposedConvolution) return true;
  }
  return false;
}

void requireMatchesReference(const VtcSession& session, const ExecPlan& plan, uint64_t seed) {
  auto inputs = randomInputs(session.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(session.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  gpu::GpuPlan onGpu(plan, generateCuda(plan), compiler);
  onGpu.setInputs(inputs);
  onGpu.poison();
  std::vector<Tensor> got = onGpu.run();
  REQUIRE(got.size() == ref.outputs.size());
  const bool tf32 = usesTf32(session.graph());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << session.graph().outputs()[i]->name());
    CHECK(scaledError(got[i], ref.outputs[i]) <= gpuTolerance(got[i].dtype(), tf32));
  }
}

void requirePlansMatchReference(Graph graph, uint64_t seed) {
  VtcSession s(std::move(graph), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  {
    INFO("baseline plan");
    requireMatchesReference(s, s.baselinePlan(), seed);
  }
  INFO("optimised plan");
  requireMatchesReference(s, s.optimizedPlan(), seed + 1);
}

} // namespace tcx::test
