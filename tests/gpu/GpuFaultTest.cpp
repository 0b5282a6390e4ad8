// A kernel that faults (an illegal address) is a Device error naming the
// launch, the plan kernel, its nodes and ops and the CUDA error (issue 19).
// After a fault the CUDA context is lost for good, so this is the only test
// in its process.
#include "support/BrokenPlan.h"

#include "profiler/GpuPlan.h"
#include "support/Error.h"

#include <catch2/catch.hpp>

using namespace tcx;
using Catch::Matchers::Contains;

TEST_CASE("a kernel that faults names its launch, plan kernel, nodes and ops", "[gpu][errors]") {
  auto session = test::reluExpSession({4, 33});
  const ExecPlan& plan = session->baselinePlan();
  gpu::NvrtcCompiler compiler("");
  gpu::GpuPlan broken(plan, test::withStatementInFirstKernel(plan, "*(volatile float*)8 = 1.0f;"), compiler);
  broken.setInputs({{"x", Tensor(plan.kernelGraph->graph().inputs().front()->type())}});
  try {
    broken.run();
    FAIL("the faulting kernel raised nothing");
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(e.kind() == ErrorKind::Device);
    CHECK_THAT(message, Contains("kernel '" + plan.kernels.front().name + "'"));
    CHECK_THAT(message, Contains("'the_relu' (Relu)"));
    CHECK_THAT(message, Contains("launch 1 of"));
    CHECK_THAT(message, Contains("cudaErrorIllegalAddress"));
  }
}
