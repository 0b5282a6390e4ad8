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

} // namespace tcx::gpu::test
