// The CUDA of every data-movement and metadata op case (tests/ops/cases)
// compiles with NVRTC for sm_90, which needs no device: the baseline and
// optimised plans, and the baseline with every op run through its own CUDA
// form (tests/ops/cases/ElementFormPlan.h). tests/gpu runs the same plans.
#include "ElementFormPlan.h"
#include "MovementOpCases.h"

#include "codegen/CudaCodegen.h"
#include "pipeline/VtcSession.h"
#include "profiler/Nvrtc.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>

using namespace tcx;

namespace {

void requireCompiles(gpu::NvrtcCompiler& compiler, const GeneratedPlan& code) {
  gpu::CompileResult r = compiler.compile(code.source, {.arch = "sm_90"});
  REQUIRE(r.cubin);
  CHECK(r.cubin->size() > 0);
}

} // namespace

// TCX_DUMP_CUDA=DIR writes each module to DIR, to read by hand.
TEST_CASE("every movement and metadata op case compiles with NVRTC for sm_90", "[codegen][nvrtc][movement]") {
  for (test::MovementOpCase& c : test::movementOpCases()) {
    SECTION(c.name) {
      VtcSession s(std::move(c.graph), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      gpu::NvrtcCompiler compiler(""); // memory only: each case compiles afresh
      const ExecPlan elementForms = test::withElementForms(s.baselinePlan());
      const std::pair<const char*, const ExecPlan*> plans[] = {
          {"baseline", &s.baselinePlan()}, {"optimised", &s.optimizedPlan()}, {"element forms", &elementForms}};
      for (const auto& [kind, plan] : plans) {
        GeneratedPlan code = generateCuda(*plan);
        INFO(kind << " plan:\n" << code.source);
        CHECK_FALSE(code.launches.empty());
        requireCompiles(compiler, code);
        if (const char* dir = std::getenv("TCX_DUMP_CUDA"))
          std::ofstream(fmt::format("{}/{} ({}).cu", dir, c.name, kind)) << code.source;
      }
    }
  }
}
