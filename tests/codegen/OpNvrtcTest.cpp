// The compute ops' CUDA forms (ops/CudaLowering.h) compile with NVRTC for
// sm_90, which needs no device: every graph of tests/ops/cases, through its
// baseline plan and VTC's optimised one, whose kernels read the ops' inputs
// through mapping functions. compute_op_gpu_test runs the same graphs on a
// GPU against the CPU reference; here both plans run on the CPU first, so
// that a GPU mismatch points at a CUDA form rather than at the graph or
// its plans.
#include "ComputeOpCases.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/OpDef.h"
#include "pipeline/VtcSession.h"
#include "profiler/Nvrtc.h"
#include "target/GpuPreset.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace tcx;

namespace {

bool movesData(const Graph& g) {
  const std::vector<Node*> nodes = g.nodes();
  return std::any_of(nodes.begin(), nodes.end(), [](const Node* n) { return n->op().isDataMovement(); });
}

void requireCompiles(const ExecPlan& plan, gpu::NvrtcCompiler& compiler) {
  GeneratedPlan generated = generateCuda(plan);
  gpu::CompileResult r = compiler.compile(generated.source, {.arch = "sm_90"});
  REQUIRE(r.cubin);
  CHECK(r.cubin->size() > 0);
}

} // namespace

TEST_CASE("every compute op's CUDA form compiles with NVRTC for sm_90, in baseline and optimised plans",
          "[codegen][nvrtc][ops]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) {
      VtcSession s(c.build(), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      // The inputs behind a Transpose, Slice, Concat or Pad are read as
      // virtual tensors once VTC has eliminated the op.
      if (movesData(s.graph())) CHECK_FALSE(s.optimizedPlan().eliminated.empty());
      gpu::NvrtcCompiler compiler(""); // memory only: the two plans' sources are often the same
      {
        INFO("baseline plan");
        requireCompiles(s.baselinePlan(), compiler);
      }
      INFO("optimised plan");
      requireCompiles(s.optimizedPlan(), compiler);
    }
  }
}

TEST_CASE("every compute op case's plans match the reference on the CPU", "[codegen][ops]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) {
      VtcSession s(c.build(), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      const auto inputs = randomInputs(s.graph(), 23);
      const ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
      for (const ExecPlan* plan : {&s.baselinePlan(), &s.optimizedPlan()}) {
        const std::vector<Tensor> got = runPlan(*plan, inputs);
        REQUIRE(got.size() == ref.outputs.size());
        for (size_t i = 0; i < got.size(); ++i) {
          INFO("output " << s.graph().outputs()[i]->name());
          CHECK(scaledError(got[i], ref.outputs[i]) == 0);
        }
      }
    }
  }
}
