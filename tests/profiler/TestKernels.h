#pragma once
// CUDA sources shared by the profiler tests.

namespace tcx::gpu::test {

// c = a + b, and x *= s; extern "C" so the names stay plain.
inline constexpr const char* kVectorKernels = R"(
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

// Reads n float4s; writes *sink only if they sum to -1 (never, for a zeroed buffer).
extern "C" __global__ void readAll(const float4* a, int n, float* sink) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += a[i].x + a[i].y + a[i].z + a[i].w;
  if (s == -1.0f) *sink = s;
}

// Uses `bytes` of dynamic shared memory, so launches above 48 KiB need the
// opt-in; writes out[i] = i through it.
extern "C" __global__ void sharedRoundTrip(int* out, int bytes) {
  extern __shared__ int staging[];
  int words = bytes / 4;
  for (int i = threadIdx.x; i < words; i += blockDim.x) staging[i] = i;
  __syncthreads();
  for (int i = threadIdx.x; i < words; i += blockDim.x) out[i] = staging[i];
}
)";

// A pair for programmatic dependent launch: slowIncrement lets a dependent
// kernel launch at once (which no plan kernel does: tcx/grid_dependency.cuh),
// spins for `ns` of the global timer, then adds one to *counter; copyAfter
// awaits the kernel before it as every plan kernel does, then copies
// *counter to *out.
inline constexpr const char* kDependentKernels = R"(
#include "tcx/grid_dependency.cuh"

extern "C" __global__ void slowIncrement(int* counter, unsigned long long ns) {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < ns);
  *counter += 1;
}

extern "C" __global__ void copyAfter(const int* counter, int* out) {
  tcx::awaitPredecessors();
  *out = *counter;
}
)";

} // namespace tcx::gpu::test
