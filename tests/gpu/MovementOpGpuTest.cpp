// Every data-movement and metadata op case (tests/ops/cases) on the GPU
// against the CPU reference executor (support/GpuCheck.h): the baseline
// and optimised plans, where run-time index operands leave the gathers and
// scatters to their own CUDA forms and virtual tensors feed them, and the
// baseline with every op run through its CUDA form (tests/ops/cases/ElementFormPlan.h).
#include "ElementFormPlan.h"
#include "MovementOpCases.h"
#include "support/GpuCheck.h"

#include "codegen/CudaCodegen.h"

#include <catch2/catch.hpp>

using namespace tcx;

TEST_CASE("every movement and metadata op case matches the reference on the GPU", "[gpu][movement]") {
  for (test::MovementOpCase& c : test::movementOpCases()) {
    SECTION(c.name) {
      test::requirePlansMatchReference(std::move(c.graph), 21);
    }
  }
}

TEST_CASE("every movement op's own CUDA form matches the reference on the GPU", "[gpu][movement]") {
  for (test::MovementOpCase& c : test::movementOpCases()) {
    SECTION(c.name) {
      VtcSession s(std::move(c.graph), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      test::requireMatchesReference(s, test::withElementForms(s.baselinePlan()), 23);
    }
  }
}

namespace {

// The optimised plan stores `out` in `data`'s buffer (the baseline, which
// donates no input, copies it) and launches no copy of it; both plans match
// the reference.
void requireInPlaceOnGpu(Graph graph, const std::string& data, size_t output) {
  VtcSession s(std::move(graph), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const Value* in = s.graph().findValue(data);
  REQUIRE(in);
  REQUIRE(plan.bufferOf(in) >= 0);
  CHECK(plan.bufferOf(s.graph().outputs()[output]) == plan.bufferOf(in));
  for (const GeneratedLaunch& l : generateCuda(plan).launches) CHECK(l.what.rfind("copy " + data, 0) != 0);
  test::requireMatchesReference(s, plan, 25);
  test::requireMatchesReference(s, s.baselinePlan(), 26);
}

} // namespace

TEST_CASE("an in-place ScatterND of run-time rows shares its data's buffer on the GPU", "[gpu][movement]") {
  requireInPlaceOnGpu(test::inPlaceScatterND(), "data", 0);
}

TEST_CASE("a decode step updates its KV cache in place with a run-time position on the GPU", "[gpu][movement]") {
  requireInPlaceOnGpu(test::kvCacheDecodeStep(), "cache", 0);
}
