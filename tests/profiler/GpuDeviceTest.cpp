#include "profiler/GpuDevice.h"

#include "support/Error.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::gpu;

TEST_CASE("gpuInfo describes the device or says why there is none", "[profiler]") {
  const GpuInfo& info = gpuInfo();
  CHECK(&info == &gpuInfo());
  CHECK(info.runtimeVersion > 0);
  if (info.available) {
    CHECK(info.reason.empty());
    CHECK(info.smCount > 0);
    CHECK(info.arch().starts_with("sm_"));
    CHECK_NOTHROW(requireGpu());
    return;
  }
  CHECK_FALSE(info.reason.empty());
  CHECK_THAT(info.describe(), Catch::Contains(info.reason));
  try {
    requireGpu();
    FAIL("requireGpu() returned without a device");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK_THAT(e.what(), Catch::StartsWith("no CUDA device: ") && Catch::Contains(info.reason) &&
                             Catch::Contains("estimated mode"));
  }
}
