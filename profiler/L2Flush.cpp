#include "profiler/L2Flush.h"

#include "profiler/GpuDevice.h"

namespace tcx::gpu {
namespace {

int64_t deviceL2Bytes() {
  requireGpu();
  return gpuInfo().l2Bytes;
}

} // namespace

L2Flush::L2Flush() : L2Flush(deviceL2Bytes()) {}

L2Flush::L2Flush(int64_t l2Bytes) : buffer_(static_cast<size_t>(2 * l2Bytes)) {}

void L2Flush::flush(cudaStream_t stream) { buffer_.memset(0, stream); }

} // namespace tcx::gpu
