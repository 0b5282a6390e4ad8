#ifndef TCX_GEMM_SMALL_M_CUH
#define TCX_GEMM_SMALL_M_CUH
// gemm_small_m: C = A B for M <= 64 rows of A (decode-time projections), where the GEMM is bound
// by reading B once. Each warp streams 64 columns x 32 rows of B per step straight from DRAM into
// registers with 16-byte loads (no shared-memory round trip), shuffles them into tensor-core
// fragments and multiplies with A, which the block has staged in shared memory. The loads of a
// warp's next step are issued before the multiply of this one: with one step in flight per warp
// the kernel waited out a DRAM round trip every step and read B at 37 % of copy (kernels/README.md).
//
// The trick that keeps B in registers: mma.sync contracts fragment columns with fragment rows in
// whatever order they are numbered, so the k order (and the n order of the output) may be
// permuted as long as A and B agree. With B's n contiguous, lane (g, t) loads 8 consecutive n at
// k = 2t, 2t+1, 2t+8, 2t+9, and byte permutes pair equal n across k: fragment row r of subtile j
// is column 8 (r % 8) + 2j + r / 8. With B's k contiguous (a transposed weight), lane (g, t)
// loads k = 8t..8t+7 of one column, and one 32-row slice is two k16 steps numbered 8t + 4s + ...
//
// Grid: (ceil(N / 64), splitK, batch); block: kSmallMThreads. The 8 warps of a block split the
// block's K range between them and add their tiles in a fixed tree; with splitK > 1 each block
// writes its tile to the workspace and the last block to arrive (counted atomically) adds the
// splitK tiles in split order, so the result does not depend on arrival order.

#include "tcx/mma.cuh"
#include "tcx/split_k.cuh"

namespace tcx {
namespace detail {

inline constexpr int kSmallMWarps = kSmallMThreads / 32;

// Column offset inside the 64-wide tile of fragment row r (0..15) of subtile j (0..3).
template <Access BAccess> __device__ __forceinline__ int smallMColumn(int j, int r) {
  if constexpr (BAccess == Access::RowContiguous)
    return 16 * j + r;
  else
    return 8 * (r % 8) + 2 * j + r / 8;
}

// The 8 B vectors lane (g, t) holds for the slice of rows k0..k0+31 and columns n0..n0+63.
template <typename T, Access BAccess>
__device__ __forceinline__ void loadSlice(uint4 (&v)[8], const GemmParams& p, const T* b, int n0,
                                          int k0, int lane) {
  const int g = lane / 4, t = lane % 4;
  const uint4 zero = make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    if constexpr (BAccess == Access::RowContiguous) {
      const int n = n0 + 16 * (i / 2) + 8 * (i % 2) + g, k = k0 + 8 * t;
      const T* src = b + n * p.b.strideCol + k;
      if (n >= p.n)
        v[i] = zero;
      else if (k + 8 <= p.k)
        v[i] = loadStreaming(src);
      else
        v[i] = gather8(src, 1, p.k - k);
    } else {
      // Vector i = 4s + c holds k = 16s + {2t, 2t+1, 2t+8, 2t+9}[c].
      const int k = k0 + 16 * (i / 4) + 2 * t + (i % 2) + 8 * ((i / 2) % 2), n = n0 + 8 * g;
      const T* src = b + k * p.b.strideRow + n * p.b.strideCol;
      if (k >= p.k)
        v[i] = zero;
      else if (BAccess == Access::ColContiguous && n + 8 <= p.n)
        v[i] = loadStreaming(src);
      else
        v[i] = gather8(src, p.b.strideCol, p.n - n);
    }
  }
}

// The A-operand (B^T) fragment of k16 step s (0, 1) and subtile j (0..3) of a slice.
template <Access BAccess>
__device__ __forceinline__ void sliceFragment(unsigned (&a)[4], const uint4 (&v)[8], int s, int j) {
  if constexpr (BAccess == Access::RowContiguous) {
    a[0] = word(v[2 * j], 2 * s);
    a[1] = word(v[2 * j + 1], 2 * s);
    a[2] = word(v[2 * j], 2 * s + 1);
    a[3] = word(v[2 * j + 1], 2 * s + 1);
  } else {
    a[0] = permute(word(v[4 * s], j), word(v[4 * s + 1], j), kLowHalves);
    a[1] = permute(word(v[4 * s], j), word(v[4 * s + 1], j), kHighHalves);
    a[2] = permute(word(v[4 * s + 2], j), word(v[4 * s + 3], j), kLowHalves);
    a[3] = permute(word(v[4 * s + 2], j), word(v[4 * s + 3], j), kHighHalves);
  }
}

// acc += slice x A[:, slice rows]; `aSlice` points at the slice's first column of staged A.
template <typename T, int MT, Access BAccess>
__device__ __forceinline__ void multiplySlice(float (&acc)[4][MT][4], const uint4 (&v)[8],
                                              const T* aSlice, int aStride, int lane) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    unsigned bf[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      const T* row = aSlice + (8 * mt + g) * aStride;
      if constexpr (BAccess == Access::RowContiguous) {
        const uint4 q = *reinterpret_cast<const uint4*>(row + 8 * t);
        bf[mt][0] = word(q, 2 * s);
        bf[mt][1] = word(q, 2 * s + 1);
      } else {
        const unsigned* words = reinterpret_cast<const unsigned*>(row);
        bf[mt][0] = words[8 * s + t];
        bf[mt][1] = words[8 * s + t + 4];
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      unsigned af[4];
      sliceFragment<BAccess>(af, v, s, j);
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
        mma16816<T>(acc[j][mt], af, bf[mt][0], bf[mt][1]);
    }
  }
}

// Copies A[0..rows)[kc..kc+cols) into shared memory as rows of `stride` elements, zero past M
// and K. 16-byte loads when A is k-contiguous and aligned; A is small and reused by every block,
// so these go through L1/L2 normally. Each thread issues kBatch loads before its first store: the
// staging is a few L2 round trips, not one per vector.
template <typename T>
__device__ __forceinline__ void stageA(T* dst, int stride, const GemmParams& p, const T* a,
                                       bool vectorA, int kc, int rows, int cols) {
  constexpr int kBatch = 4;
  const int vectorsPerRow = cols / 8, vectors = rows * vectorsPerRow;
  for (int i0 = threadIdx.x; i0 < vectors; i0 += kBatch * kSmallMThreads) {
    uint4 x[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * kSmallMThreads, m = i / vectorsPerRow, k = kc + 8 * (i % vectorsPerRow);
      const T* src = a + m * p.a.strideRow + k * p.a.strideCol;
      x[u] = make_uint4(0, 0, 0, 0);
      if (i < vectors && m < p.m)
        x[u] = vectorA && k + 8 <= p.k ? *reinterpret_cast<const uint4*>(src)
                                       : gather8(src, p.a.strideCol, p.k - k);
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * kSmallMThreads;
      if (i < vectors)
        *reinterpret_cast<uint4*>(dst + i / vectorsPerRow * stride + 8 * (i % vectorsPerRow)) = x[u];
    }
  }
}

// Adds the warps' accumulators into warp 0 in a fixed tree (deterministic), using `scratch`.
template <int MT> __device__ __forceinline__ void reduceWarps(float (&acc)[4][MT][4], float* scratch) {
  constexpr int kValues = 4 * MT * 4;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int half = kSmallMWarps / 2; half >= 1; half /= 2) {
    if (warp >= half && warp < 2 * half) {
#pragma unroll
      for (int i = 0; i < kValues; ++i)
        scratch[((warp - half) * kValues + i) * 32 + lane] = acc[i / (4 * MT)][(i / 4) % MT][i % 4];
    }
    __syncthreads();
    if (warp < half) {
#pragma unroll
      for (int i = 0; i < kValues; ++i)
        acc[i / (4 * MT)][(i / 4) % MT][i % 4] += scratch[(warp * kValues + i) * 32 + lane];
    }
    __syncthreads();
  }
}

} // namespace detail

// MT = ceil(M / 8) (1..8); BAccess: how B (k, n) is laid out (abi.h). Dynamic shared memory and
// the params' split fields come from planGemm (launch.h).
template <typename T, int MT, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemm_small_m_body(const GemmParams& p, const Epilogue& epilogue) {
  static_assert(isTensorCoreType<T>, "gemm_small_m takes __half or __nv_bfloat16; use gemm_tiled");
  static_assert(MT >= 1 && MT <= 8, "gemm_small_m handles M <= 64");
  using namespace detail;
  constexpr int kRows = 8 * MT, kTile = kRows * kSmallMTileN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile = blockIdx.x, split = blockIdx.y, batch = blockIdx.z;
  const int n0 = tile * kSmallMTileN;
  const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch;
  const bool vectorA = p.a.strideCol == 1 && p.a.strideRow % 8 == 0 &&
                       reinterpret_cast<unsigned long long>(a) % 16 == 0;
  const int kBegin = split * p.kPerSplit, kEnd = min(p.k, kBegin + p.kPerSplit);
  const int aStride = p.kChunk + smallMAPadding(BAccess);
  T* aShared = reinterpret_cast<T*>(dynamicShared());

  // The warp's slices of the split are warp, warp + W, ...; each is loaded one slice ahead of
  // its multiply (and the first before A is staged), so a warp always has a slice of B in flight.
  const int splitSlices = (kEnd - kBegin + kSmallMKBlock - 1) / kSmallMKBlock;
  const int chunkSlices = p.kChunk / kSmallMKBlock;
  float acc[4][MT][4] = {};
  uint4 cur[8], next[8];
  int slice = warp;
  if (slice < splitSlices)
    loadSlice<T, BAccess>(cur, p, b, n0, kBegin + kSmallMKBlock * slice, lane);
  for (int c0 = 0; c0 < splitSlices; c0 += chunkSlices) {
    const int chunkEnd = min(c0 + chunkSlices, splitSlices);
    __syncthreads();
    stageA(aShared, aStride, p, a, vectorA, kBegin + kSmallMKBlock * c0, kRows, (chunkEnd - c0) * kSmallMKBlock);
    __syncthreads();
    for (; slice < chunkEnd; slice += kSmallMWarps) {
      if (slice + kSmallMWarps < splitSlices)
        loadSlice<T, BAccess>(next, p, b, n0, kBegin + kSmallMKBlock * (slice + kSmallMWarps), lane);
      multiplySlice<T, MT, BAccess>(acc, cur, aShared + kSmallMKBlock * (slice - c0), aStride, lane);
#pragma unroll
      for (int i = 0; i < 8; ++i)
        cur[i] = next[i];
    }
  }

  // Warp 0 gathers the block's tile and lays it out as [row][column] in shared memory.
  __syncthreads();
  float* shared = reinterpret_cast<float*>(dynamicShared());
  reduceWarps<MT>(acc, shared);
  if (warp == 0) {
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int e = 0; e < 4; ++e)
          shared[(8 * mt + 2 * t + e % 2) * kSmallMTileN + smallMColumn<BAccess>(j, g + 8 * (e / 2))] =
              acc[j][mt][e];
  }
  __syncthreads();

  const int rows = min(p.m, kRows);
  if (p.splitK == 1) {
    for (int i = threadIdx.x; i < rows * kSmallMTileN; i += kSmallMThreads)
      if (n0 + i % kSmallMTileN < p.n)
        epilogue(batch, i / kSmallMTileN, n0 + i % kSmallMTileN, shared[i]);
    return;
  }

  // Split K: publish this block's tile; the last of the splitK blocks adds them all.
  const int tileId = batch * gridDim.x + tile;
  float* partials = splitKPartials(p.workspace) + static_cast<i64>(tileId) * p.splitK * kTile;
  for (int i = threadIdx.x; i < kTile / 4; i += kSmallMThreads)
    reinterpret_cast<float4*>(partials + split * kTile)[i] = reinterpret_cast<const float4*>(shared)[i];
  if (!splitKArriveLast(static_cast<unsigned*>(p.workspace) + tileId, p.splitK))
    return;
  for (int i = threadIdx.x; i < rows * kSmallMTileN; i += kSmallMThreads) {
    float sum = 0.0f;
    for (int s = 0; s < p.splitK; ++s)
      sum += __ldcg(partials + s * kTile + i);
    if (n0 + i % kSmallMTileN < p.n)
      epilogue(batch, i / kSmallMTileN, n0 + i % kSmallMTileN, sum);
  }
}

} // namespace tcx

#endif // TCX_GEMM_SMALL_M_CUH
