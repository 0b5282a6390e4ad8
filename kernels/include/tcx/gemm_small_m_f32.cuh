#ifndef TCX_GEMM_SMALL_M_F32_CUH
#define TCX_GEMM_SMALL_M_F32_CUH
// gemm_small_m_f32: C = A B in fp32 on the CUDA cores for at most kSmallMF32MaxRows rows of A (a
// batch-1 classifier, a few tokens through a projection), where the GEMM is bound by reading B
// once: gemm_tiled's 64x64 tiles would run a few dozen blocks over a 1280x1000 weight. Two
// mappings, by B's layout:
//
//  - n contiguous (ColContiguous, and Strided): a thread per column, kSmallMF32Threads columns a
//    block. The block stages A's rows for a chunk of K in shared memory; each thread walks its
//    column of B down the chunk, the warp's loads coalesced across columns, A broadcast.
//  - k contiguous (RowContiguous: a transposed weight, Gemm with transB): a warp per column,
//    kSmallMF32Warps columns a block; the lanes walk the column with 16-byte loads along K and
//    reduce with shuffles.
//
// Grid: (column tiles, splitK, batch); K splits in multiples of kSmallMF32KSplit rows. With splitK > 1
// each block writes its partial tile to the workspace and the last block of a tile to arrive
// (counted atomically) sums the splits in split order, so the result does not depend on arrival
// order; it leaves the counter at zero for the next launch. Workspace (abi.h): the counters, then
// tiles x splitK x M x tile-width floats.

#include "tcx/split_k.cuh"

namespace tcx {
namespace detail {

// Hands the block's partial results (acc[m] for its column `local` of the tile; `owner`: this
// thread holds a real column) to the epilogue, through the split-K handshake when there is one.
// Every thread of the block calls it.
template <int M, typename Epilogue>
__device__ __forceinline__ void smallMF32Finish(const GemmParams& p, const Epilogue& epilogue, const float (&acc)[M],
                                                int n, int local, bool owner, int tileCols) {
  const int batch = blockIdx.z;
  if (p.splitK == 1) {
    if (owner)
#pragma unroll
      for (int m = 0; m < M; ++m) epilogue(batch, m, n, acc[m]);
    return;
  }
  const unsigned tile = blockIdx.z * gridDim.x + blockIdx.x;
  float* partials = splitKPartials(p.workspace);
  const i64 splitStride = i64{M} * tileCols;
  float* mine = partials + (i64{tile} * p.splitK + blockIdx.y) * splitStride;
  if (owner)
#pragma unroll
    for (int m = 0; m < M; ++m) mine[m * tileCols + local] = acc[m];
  if (!splitKArriveLast(static_cast<unsigned*>(p.workspace) + tile, p.splitK))
    return;
  if (owner) {
    // Splits outermost, so that each step has the M loads in flight at once.
    const float* first = partials + i64{tile} * p.splitK * splitStride;
    float sum[M];
#pragma unroll
    for (int m = 0; m < M; ++m) sum[m] = 0.0f;
    for (int s = 0; s < p.splitK; ++s)
#pragma unroll
      for (int m = 0; m < M; ++m) sum[m] += __ldcg(first + s * splitStride + m * tileCols + local);
#pragma unroll
    for (int m = 0; m < M; ++m) epilogue(batch, m, n, sum[m]);
  }
}

// A thread per column of B (n contiguous or any strides).
template <int M, typename Epilogue>
__device__ __forceinline__ void smallMF32ByColumn(const GemmParams& p, const Epilogue& epilogue) {
  __shared__ float staged[M][kSmallMF32KChunk];
  const int batch = blockIdx.z;
  const int n = blockIdx.x * kSmallMF32Threads + threadIdx.x;
  const bool owner = n < p.n;
  const float* a = static_cast<const float*>(p.a.data) + batch * p.a.strideBatch;
  const float* b = static_cast<const float*>(p.b.data) + batch * p.b.strideBatch + (owner ? n : 0) * p.b.strideCol;
  const int k0 = blockIdx.y * p.kPerSplit;
  const int k1 = min(p.k, k0 + p.kPerSplit);
  float acc[M];
#pragma unroll
  for (int m = 0; m < M; ++m) acc[m] = 0.0f;
  for (int kc = k0; kc < k1; kc += kSmallMF32KChunk) {
    const int len = min(kSmallMF32KChunk, k1 - kc);
    __syncthreads();
    for (int i = threadIdx.x; i < M * kSmallMF32KChunk; i += kSmallMF32Threads) {
      const int m = i / kSmallMF32KChunk, kk = i % kSmallMF32KChunk;
      staged[m][kk] = kk < len ? a[m * p.a.strideRow + (kc + kk) * p.a.strideCol] : 0.0f;
    }
    __syncthreads();
    if (owner) {
      const float* column = b + i64{kc} * p.b.strideRow;
#pragma unroll 8
      for (int kk = 0; kk < len; ++kk) {
        const float bv = __ldg(column + i64{kk} * p.b.strideRow);
#pragma unroll
        for (int m = 0; m < M; ++m) acc[m] = fmaf(staged[m][kk], bv, acc[m]);
      }
    }
  }
  smallMF32Finish<M>(p, epilogue, acc, n, threadIdx.x, owner, kSmallMF32Threads);
}

// A warp per column of B, k contiguous and 16-byte aligned (Access::RowContiguous).
template <int M, typename Epilogue>
__device__ __forceinline__ void smallMF32ByRow(const GemmParams& p, const Epilogue& epilogue) {
  const int batch = blockIdx.z;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int n = blockIdx.x * kSmallMF32Warps + warp;
  const bool valid = n < p.n;
  const float* a = static_cast<const float*>(p.a.data) + batch * p.a.strideBatch;
  const float* column = static_cast<const float*>(p.b.data) + batch * p.b.strideBatch + (valid ? n : 0) * p.b.strideCol;
  const int k0 = blockIdx.y * p.kPerSplit;
  const int k1 = min(p.k, k0 + p.kPerSplit);
  const int vectorEnd = k0 + (k1 - k0) / 4 * 4; // k0 is a multiple of 4: kPerSplit is
  float acc[M];
#pragma unroll
  for (int m = 0; m < M; ++m) acc[m] = 0.0f;
  if (valid) {
    for (int k = k0 + lane * 4; k < vectorEnd; k += 128) {
      const float4 bv = __ldg(reinterpret_cast<const float4*>(column + k));
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const float* row = a + m * p.a.strideRow + i64{k} * p.a.strideCol;
        acc[m] = fmaf(row[0], bv.x, acc[m]);
        acc[m] = fmaf(row[p.a.strideCol], bv.y, acc[m]);
        acc[m] = fmaf(row[2 * p.a.strideCol], bv.z, acc[m]);
        acc[m] = fmaf(row[3 * p.a.strideCol], bv.w, acc[m]);
      }
    }
    for (int k = vectorEnd + lane; k < k1; k += 32) {
      const float bv = column[k];
#pragma unroll
      for (int m = 0; m < M; ++m) acc[m] = fmaf(a[m * p.a.strideRow + i64{k} * p.a.strideCol], bv, acc[m]);
    }
  }
#pragma unroll
  for (int m = 0; m < M; ++m)
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) acc[m] += __shfl_xor_sync(0xffffffffu, acc[m], mask);
  smallMF32Finish<M>(p, epilogue, acc, n, warp, valid && lane == 0, kSmallMF32Warps);
}

} // namespace detail

// M: the rows of A (p.m == M); BAccess: B's layout (launch.h's planGemm).
template <int M, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemm_small_m_f32_body(const GemmParams& p, const Epilogue& epilogue) {
  if constexpr (BAccess == Access::RowContiguous)
    detail::smallMF32ByRow<M>(p, epilogue);
  else
    detail::smallMF32ByColumn<M>(p, epilogue);
}

} // namespace tcx

#endif // TCX_GEMM_SMALL_M_F32_CUH
