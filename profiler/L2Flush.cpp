#include "profiler/L2Flush.h"

#include "profiler/CudaModule.h"
#include "profiler/GpuDevice.h"
#include "profiler/Nvrtc.h"

#include "tcx/abi.h"

namespace tcx::gpu {
namespace {

int64_t deviceL2Bytes() {
  requireGpu();
  return gpuInfo().l2Bytes;
}

constexpr const char* kFlushSource = R"(#include "tcx/l2_flush.cuh"
extern "C" __global__ void __launch_bounds__(tcx::kL2FlushThreads)
tcx_l2_flush(const uint4* p, tcx::i64 vectors, unsigned key, unsigned* sink) {
  tcx::l2_flush_body(p, vectors, key, sink);
}
)";

// One module for the process, loaded on the first flush.
struct FlushKernel {
  CudaModule module;
  cudaKernel_t kernel;
  FlushKernel() : module(*NvrtcCompiler().compile(kFlushSource).cubin), kernel(module.kernel("tcx_l2_flush")) {}
};

FlushKernel& flushKernel() {
  static FlushKernel k;
  return k;
}

} // namespace

L2Flush::L2Flush() : L2Flush(deviceL2Bytes()) {}

// Zeroed once, so the XOR of the words read is 0 and the kernel's key (1) never matches.
L2Flush::L2Flush(int64_t l2Bytes) : buffer_(static_cast<size_t>(2 * l2Bytes)), sink_(sizeof(unsigned)) {
  buffer_.memset(0);
}

void L2Flush::flush(cudaStream_t stream) {
  FlushKernel& k = flushKernel();
  const void* data = buffer_.data();
  i64 vectors = static_cast<i64>(buffer_.size() / 16);
  unsigned key = 1;
  void* sink = sink_.data();
  void* args[] = {&data, &vectors, &key, &sink};
  const GpuInfo& info = gpuInfo();
  k.module.launch(k.kernel, dim3(static_cast<unsigned>(4 * info.smCount)), dim3(kL2FlushThreads), 0, args, stream);
}

} // namespace tcx::gpu
