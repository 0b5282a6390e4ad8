#pragma once
// Evicts the GPU's L2 cache between timed repetitions, so that every
// repetition reads its inputs from DRAM as a real run would: a memset of a
// buffer twice the L2 size leaves none of the earlier lines resident.

#include "profiler/DeviceBuffer.h"

#include <cstdint>

namespace tcx::gpu {

class L2Flush {
public:
  // Sized from gpuInfo() (raises Unsupported without a device).
  L2Flush();
  explicit L2Flush(int64_t l2Bytes);

  // Enqueues the flush on `stream`.
  void flush(cudaStream_t stream);

  size_t bytes() const { return buffer_.size(); }

private:
  DeviceBuffer buffer_;
};

} // namespace tcx::gpu
