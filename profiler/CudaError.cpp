#include "profiler/CudaError.h"

#include "support/Error.h"

namespace tcx::gpu {

void checkCuda(cudaError_t status, std::string_view what) {
  if (status == cudaSuccess) return;
  raise(ErrorKind::Device, "{}: {}: {}", what, cudaGetErrorName(status), cudaGetErrorString(status));
}

} // namespace tcx::gpu
