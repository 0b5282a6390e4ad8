#pragma once
// Empties the GPU's L2 cache between timed repetitions, so that every
// repetition reads its inputs from DRAM as a real run would, and starts with
// no dirty lines to write back: a kernel reads a buffer twice the L2 size
// (kernels/include/tcx/l2_flush.cuh says why a memset is not enough).

#include "profiler/DeviceBuffer.h"

#include <cstdint>

namespace tcx::gpu {

class L2Flush {
public:
  // Sized from gpuInfo() (raises Unsupported without a device).
  L2Flush();
  explicit L2Flush(int64_t l2Bytes);

  // Enqueues the flush on `stream`. The flush kernel is compiled with NVRTC
  // on first use (cached like plan kernels) and never timed: it runs before
  // any repetition's events or CUPTI capture.
  void flush(cudaStream_t stream);

  size_t bytes() const { return buffer_.size(); }

private:
  DeviceBuffer buffer_;
  DeviceBuffer sink_;
};

} // namespace tcx::gpu
