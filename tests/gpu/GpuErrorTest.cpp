// How GPU failures reach the user (issue 19): a plan that does not fit in the
// device's memory and generated code that NVRTC rejects are errors that name
// the plan kernel, its nodes and ops; the process goes on. A kernel that
// faults is GpuFaultTest's, in a process of its own.
#include "support/BrokenPlan.h"

#include "codegen/CudaCodegen.h"
#include "profiler/GpuPlan.h"
#include "support/Error.h"

#include <catch2/catch.hpp>

using namespace tcx;
using Catch::Matchers::Contains;

namespace {

// The message of the Error of `kind` that `f` raises; fails otherwise.
template <typename F>
std::string errorOf(ErrorKind kind, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(errorKindName(e.kind()) == std::string(errorKindName(kind)));
    return e.what();
  }
  FAIL("no error was raised");
  return {};
}

} // namespace

TEST_CASE("a plan too large for the device is a Device error that says where its memory goes", "[gpu][errors]") {
  // 2^36 floats in and out: 512 GiB, more than any GPU holds.
  auto session = test::reluExpSession({1 << 12, 1 << 12, 1 << 12});
  gpu::NvrtcCompiler compiler("");
  const std::string message = errorOf(ErrorKind::Device, [&] {
    gpu::GpuPlan(session->baselinePlan(), generateCuda(session->baselinePlan()), compiler);
  });
  CHECK_THAT(message, Contains("the plan needs 524288.0 MiB of device memory"));
  CHECK_THAT(message, Contains("inputs, outputs and constants 524288.0 MiB"));
  CHECK_THAT(message, Contains("MiB free of"));
}

TEST_CASE("generated code that NVRTC rejects names its plan kernel, nodes and ops", "[gpu][errors]") {
  auto session = test::reluExpSession({4, 33});
  gpu::NvrtcCompiler compiler("");
  const ExecPlan& plan = session->baselinePlan();
  const std::string message = errorOf(ErrorKind::Internal, [&] {
    gpu::GpuPlan(plan, test::withStatementInFirstKernel(plan, "this_is_not_cuda;"), compiler);
  });
  CHECK_THAT(message, Contains("generated code of kernel '" + plan.kernels.front().name + "'"));
  CHECK_THAT(message, Contains("'the_relu' (Relu)"));
  CHECK_THAT(message, Contains("this_is_not_cuda"));

  INFO("the process goes on: the same plan, as generated, runs");
  gpu::GpuPlan good(plan, generateCuda(plan), compiler);
  good.setInputs({{"x", Tensor(plan.kernelGraph->graph().inputs().front()->type())}});
  CHECK(good.run().size() == 1);
}
