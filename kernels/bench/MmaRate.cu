// MmaRate: the ceilings the tensor-core kernels are measured against, on the GPU it runs on. Every
// warp of 4 blocks of 8 warps a multiprocessor (or fewer) runs a long loop of independent
// accumulations, so latency is hidden and only issue and pipe rates remain:
//   - mma.sync m16n8k8 tf32 and m16n8k16 f16 (tcx/mma.cuh's instructions), and FFMA;
//   - gemm_tiled's float inner step as it stands: a warp's 4 x 4 tiles, A split per row tile and
//     B per column tile (splitTf32), three products a tile, summed apart and added to acc, or
//     added straight into acc. What it reaches is the most the 3xTF32 GEMM can, with no loads,
//     no barrier and no epilogue.
// kernels/README.md records what it printed.
#include "tcx/mma.cuh"

#include <cstdio>
#include <cuda_runtime.h>

namespace {

constexpr int kIters = 4096;

__global__ void tf32Rate(float* out, unsigned seed) {
  float acc[8][4] = {};
  const unsigned a[4] = {seed, seed + 1, seed + 2, seed + 3};
  for (int i = 0; i < kIters; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) tcx::mma1688Tf32(acc[j], a, seed * 3 + i, seed * 5);
  float s = 0;
  for (int j = 0; j < 8; ++j) s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void f16Rate(float* out, unsigned seed) {
  float acc[8][4] = {};
  const unsigned a[4] = {seed, seed + 1, seed + 2, seed + 3};
  for (int i = 0; i < kIters; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) tcx::mma16816<__half>(acc[j], a, seed * 3 + i, seed * 5);
  float s = 0;
  for (int j = 0; j < 8; ++j) s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void ffmaRate(float* out, unsigned seed) {
  float acc[16];
  for (int j = 0; j < 16; ++j) acc[j] = seed * 1e-9f + j;
  for (int i = 0; i < kIters * 4; ++i)
#pragma unroll
    for (int j = 0; j < 16; ++j) acc[j] = fmaf(acc[j], 1.0001f, 1e-7f);
  float s = 0;
  for (int j = 0; j < 16; ++j) s += acc[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Steps of K (8 floats) per warp in tiledStepRate: 48 m16n8k8 each.
constexpr int kSteps = kIters / 6;

template <bool kSumApart> __global__ void tiledStepRate(float* out, unsigned seed) {
  float acc[4][4][4] = {};
  for (int step = 0; step < kSteps; ++step) {
    unsigned bBig[4][2], bSmall[4][2];
#pragma unroll
    for (int ni = 0; ni < 4; ++ni)
#pragma unroll
      for (int j = 0; j < 2; ++j) tcx::splitTf32(seed * (7 + j) + ni + step, bBig[ni][j], bSmall[ni][j]);
#pragma unroll
    for (int mi = 0; mi < 4; ++mi) {
      unsigned aBig[4], aSmall[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) tcx::splitTf32((seed * (mi + 3) + j) ^ step, aBig[j], aSmall[j]);
#pragma unroll
      for (int ni = 0; ni < 4; ++ni) {
        float sum[4] = {};
        float(&target)[4] = kSumApart ? sum : acc[mi][ni];
        tcx::mma1688Tf32(target, aSmall, bBig[ni][0], bBig[ni][1]);
        tcx::mma1688Tf32(target, aBig, bSmall[ni][0], bSmall[ni][1]);
        tcx::mma1688Tf32(target, aBig, bBig[ni][0], bBig[ni][1]);
        if constexpr (kSumApart)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[mi][ni][e] += sum[e];
      }
    }
  }
  float s = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 4; ++e) s += acc[i][j][e];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Seconds of the second of two launches.
double seconds(void (*kernel)(float*, unsigned), float* out, int blocks, int threads) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  kernel<<<blocks, threads>>>(out, 1);
  cudaEventRecord(start);
  kernel<<<blocks, threads>>>(out, 2);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start), cudaEventDestroy(stop);
  return ms * 1e-3;
}

} // namespace

int main() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::fprintf(stderr, "MmaRate: no CUDA device\n");
    return 1;
  }
  constexpr int kThreads = 256;
  const int blocks = prop.multiProcessorCount * 4;
  float* out = nullptr;
  cudaMalloc(&out, sizeof(float) * blocks * kThreads);
  const double warps = double(blocks) * kThreads / 32;
  const double tf32 = warps * kIters * 8 * 2048 / seconds(tf32Rate, out, blocks, kThreads);
  std::printf("%s, %d multiprocessors\n", prop.name, prop.multiProcessorCount);
  std::printf("mma.sync m16n8k8 tf32:  %6.1f TFLOPS (3xTF32 at most %.1f)\n", tf32 / 1e12, tf32 / 3e12);
  std::printf("mma.sync m16n8k16 f16:  %6.1f TFLOPS\n",
              warps * kIters * 8 * 4096 / seconds(f16Rate, out, blocks, kThreads) / 1e12);
  std::printf("FFMA fp32:              %6.1f TFLOPS\n",
              double(blocks) * kThreads * kIters * 4 * 16 * 2 / seconds(ffmaRate, out, blocks, kThreads) / 1e12);
  for (int perSm : {2, 1}) {
    const int b = prop.multiProcessorCount * perSm;
    const double flops = double(b) * kThreads / 32 * kSteps * 48 * 2048 / 3; // useful fp32 FLOPs
    std::printf("3xTF32 tile step, %d blocks of 8 warps a multiprocessor: summed apart %.1f TFLOPS, into acc %.1f\n",
                perSm, flops / seconds(tiledStepRate<true>, out, b, kThreads) / 1e12,
                flops / seconds(tiledStepRate<false>, out, b, kThreads) / 1e12);
  }
  const bool ok = cudaGetLastError() == cudaSuccess;
  cudaFree(out);
  return ok ? 0 : 1;
}
