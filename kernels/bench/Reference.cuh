#pragma once
// Simple reference kernels (one thread per GEMM output, one block per attention row, fp32) and
// the functors a code generator would emit, in their plainest form.

#include "tcx/abi.h"
#include "tcx/reduce.cuh"

namespace bench {

using tcx::i64;

// Stores C[batch][m][n] as float, row-major.
struct StoreC {
  float* c;
  int m, n;
  __device__ void operator()(int batch, int row, int col, float acc) const {
    c[(i64{batch} * m + row) * n + col] = acc;
  }
};

// Rows blockIdx.y, blockIdx.y + gridDim.y, ...: a grid's y is at most 65535, a pointwise
// convolution's GEMM has a row per pixel (100352 for 32 images of 56 x 56).
template <typename T>
__global__ void referenceGemm(tcx::GemmParams p, StoreC out) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x, batch = blockIdx.z;
  if (n >= p.n)
    return;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch + n * p.b.strideCol;
  for (int m = blockIdx.y; m < p.m; m += gridDim.y) {
    const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch + static_cast<i64>(m) * p.a.strideRow;
    float acc = 0.0f;
    for (int k = 0; k < p.k; ++k)
      acc = fmaf(tcx::to_float(a[k * p.a.strideCol]), tcx::to_float(b[k * p.b.strideRow]), acc);
    out(batch, m, n, acc);
  }
}

// What codegen's ScoreOp does for Llama and Gemma: scale, optional tanh soft-capping, causal mask
// for the sq newest positions, and an optional head whose scores are all masked.
struct ScoreOp {
  float scale;
  float softCap; // 0: none
  int skv, sq;
  bool causal;
  int maskedHead; // -1: none
  int maskFrom;   // positions >= maskFrom masked for every head (skv: none)
  __device__ float operator()(int, int h, int i, int j, float dot) const {
    if (h == maskedHead || j >= maskFrom || (causal && j > skv - sq + i))
      return -tcx::infinity();
    float s = dot * scale;
    return softCap > 0.0f ? softCap * tanhf(s / softCap) : s;
  }
};

// Stores O[b][h][i][d] as float, contiguous.
struct StoreO {
  float* o;
  int heads, sq, d;
  __device__ void operator()(int b, int h, int i, int dd, float v) const {
    o[((i64{b} * heads + h) * sq + i) * d + dd] = v;
  }
};

// One block of 128 threads per (b, h, i); scores in shared memory (skv <= 8192).
template <typename T>
__global__ void referenceAttention(tcx::AttentionParams p, int headDim, ScoreOp score, StoreO out) {
  __shared__ float s[8192];
  const int i = blockIdx.x % p.sq, h = blockIdx.x / p.sq % p.heads, b = blockIdx.x / p.sq / p.heads;
  const int kvh = h / (p.heads / p.kvHeads);
  const T* q = static_cast<const T*>(p.q) + b * p.qStride[0] + h * p.qStride[1] + i * p.qStride[2];
  const T* k = static_cast<const T*>(p.k) + b * p.kStride[0] + kvh * p.kStride[1];
  const T* v = static_cast<const T*>(p.v) + b * p.vStride[0] + kvh * p.vStride[1];
  for (int j = threadIdx.x; j < p.skv; j += blockDim.x) {
    float dot = 0.0f;
    for (int d = 0; d < headDim; ++d)
      dot = fmaf(tcx::to_float(q[d * p.qStride[3]]), tcx::to_float(k[j * p.kStride[2] + d]), dot);
    s[j] = score(b, h, i, j, dot);
  }
  __syncthreads();
  float mx = -tcx::infinity();
  for (int j = threadIdx.x; j < p.skv; j += blockDim.x)
    mx = fmaxf(mx, s[j]);
  mx = tcx::blockMax(mx);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < p.skv; j += blockDim.x)
    sum += expf(s[j] - mx);
  sum = tcx::blockSum(sum);
  for (int d = threadIdx.x; d < headDim; d += blockDim.x) {
    float acc = 0.0f;
    for (int j = 0; j < p.skv; ++j)
      acc = fmaf(expf(s[j] - mx), tcx::to_float(v[j * p.vStride[2] + d]), acc);
    out(b, h, i, d, acc / sum);
  }
}

} // namespace bench
