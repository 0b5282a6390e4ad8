#pragma once
// CUDA runtime failures as tcx::Error. Every runtime call in profiler/ goes
// through checkCuda, so a failure names the call that made it and the
// runtime's own explanation.

#include <cuda_runtime_api.h>

#include <string_view>

namespace tcx::gpu {

// Raises Device "<what>: <cudaErrorName>: <cudaGetErrorString>" unless
// `status` is cudaSuccess.
void checkCuda(cudaError_t status, std::string_view what);

} // namespace tcx::gpu
