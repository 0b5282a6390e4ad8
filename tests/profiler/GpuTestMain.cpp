// profiler_gpu_test: runs its cases on a CUDA device and skips (exit code 77,
// ctest's SKIP_RETURN_CODE) on a machine without one.

#include "profiler/GpuDevice.h"
#include "profiler/KernelActivity.h"

#include "support/CatchSession.h"

#include <cstdio>

int main(int argc, char** argv) {
  const tcx::gpu::GpuInfo& info = tcx::gpu::gpuInfo();
  if (!info.available) {
    std::printf("skipped: no CUDA device (%s)\n", info.reason.c_str());
    return 77;
  }
  std::printf("device: %s\n", info.describe().c_str());
  // CUPTI first, before any module loads, as a tcx program does.
  const tcx::gpu::KernelActivity& activity = tcx::gpu::KernelActivity::instance();
  std::printf("CUPTI: %s\n", activity.available() ? "enabled" : activity.reason().c_str());
  return tcx::test::runCatchSession(argc, argv);
}
