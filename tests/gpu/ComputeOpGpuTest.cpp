// The compute ops' CUDA forms on the GPU against the CPU reference executor
// (support/GpuCheck.h): every graph of tests/ops/cases, through its baseline
// plan and VTC's optimised one, where the ops read their inputs as virtual
// tensors; the convolutions again with their tensors stored channels-last.
// op_nvrtc_test compiles the same graphs without a device.
#include "ComputeOpCases.h"
#include "support/GpuCheck.h"

#include <catch2/catch.hpp>

using namespace tcx;

TEST_CASE("every compute op's CUDA form matches the reference on the GPU", "[gpu][ops]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) { test::requirePlansMatchReference(c.build(), 23); }
  }
}

TEST_CASE("every GEMM and convolution case matches the reference on cuBLAS and cuDNN", "[gpu][ops][vendor]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) { test::requirePlansMatchReference(c.build(), 29, VendorPolicy::Always); }
  }
}

TEST_CASE("every convolution case matches the reference with channels-last tensors", "[gpu][ops][layout]") {
  const PlanOptions channelsLast{.layouts = LayoutPolicy::ChannelsLast};
  for (const test::OpCase& c : test::computeOpCases()) {
    if (c.name.rfind("Conv ", 0) != 0) continue;
    DYNAMIC_SECTION(c.name) { test::requirePlansMatchReference(c.build(), 31, VendorPolicy::Never, channelsLast); }
  }
}
