#ifndef TCX_GEMM_SMALL_M_CUH
#define TCX_GEMM_SMALL_M_CUH
// gemm_small_m: C = A B for a few rows of A (decode-time projections, a batch-1 classifier), where
// the GEMM is bound by reading B once. Each warp streams 64 columns x 64 bytes of K of B per step
// (a slice: 32 rows of 16-bit elements, 16 of floats) straight from DRAM into registers with
// 16-byte loads (no shared-memory round trip), shuffles them into tensor-core fragments and
// multiplies with A, which the block has staged in shared memory. A warp's next slice is in
// flight during the multiply of this one: with one slice in flight per warp the kernel waited out
// a DRAM round trip every step and read B at 37 % of copy (kernels/README.md). 16-bit T loads the
// whole next slice before the multiply; float reloads each vector as soon as its fragments are
// taken (multiplySliceTf32x3 says why).
//
// 16-bit T takes mma.sync m16n8k16 (M <= 64). float takes m16n8k8 on tf32 three times (3xTF32,
// as gemm_tiled does, whose header says why), so that results keep fp32's accuracy as PyTorch's
// default fp32 matmul does (M <= kSmallMMaxRowsF32, abi.h says why no more); each subtile's
// products of a slice are summed apart and added to the accumulators on the CUDA cores, which
// round to nearest where the tensor cores' accumulation truncates. On the CUDA cores (the float
// kernel this one replaced) a 16-row projection read B at about a fifth of copy bandwidth: each
// element of B took 16 FMAs and as many shared-memory reads of A.
//
// The trick that keeps B in registers: mma.sync contracts fragment columns with fragment rows in
// whatever order they are numbered, so the k order (and the n order of the output) may be
// permuted as long as A and B agree. With B's k contiguous (a transposed weight), lane (g, t)
// loads one 16-byte vector of k at 16t bytes per column, and the slice's k steps are numbered
// through those vectors. With B's n contiguous, lane (g, t) loads a vector of consecutive n at
// each of its k: 16-bit T at k = 2t, 2t+1, 2t+8, 2t+9, byte permutes pairing equal n across k
// (fragment row r of subtile j is column 8 (r % 8) + 2j + r / 8); float at k = t and t + 4 for
// columns 4g..4g+3 of each 32-column half (fragment row r of subtile j is column
// 32 (j / 2) + 4 (r % 8) + 2 (j % 2) + r / 8).
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
template <typename T> inline constexpr int kSmallMVector = 16 / sizeof(T); // elements a 16-byte load
template <typename T> inline constexpr int kSmallMSlice = smallMKBlock(sizeof(T));

// Column offset inside the 64-wide tile of fragment row r (0..15) of subtile j (0..3).
template <typename T, Access BAccess> __device__ __forceinline__ int smallMColumn(int j, int r) {
  if constexpr (BAccess == Access::RowContiguous)
    return 16 * j + r;
  else if constexpr (isSame<T, float>)
    return 32 * (j / 2) + 4 * (r % 8) + 2 * (j % 2) + r / 8;
  else
    return 8 * (r % 8) + 2 * j + r / 8;
}

// Vector i (0..7) of the slice of rows k0.. and columns n0..n0+63 that lane (g, t) holds.
template <typename T, Access BAccess>
__device__ __forceinline__ uint4 loadSliceVector(const GemmParams& p, const T* b, int n0, int k0, int lane, int i) {
  constexpr int kVec = kSmallMVector<T>;
  const int g = lane / 4, t = lane % 4;
  if constexpr (BAccess == Access::RowContiguous) {
    const int n = n0 + 16 * (i / 2) + 8 * (i % 2) + g, k = k0 + kVec * t;
    const T* src = b + n * p.b.strideCol + k;
    if (n >= p.n)
      return make_uint4(0, 0, 0, 0);
    return k + kVec <= p.k ? loadStreaming(src) : gatherVector(src, 1, p.k - k);
  } else {
    // 16-bit: vector i = 4s + c holds k = 16s + {2t, 2t+1, 2t+8, 2t+9}[c], columns 8g..8g+7.
    // float: vector i = 4s + 2h + q holds k = 8s + t + 4q, columns 32h + 4g..32h + 4g + 3.
    const int k = isSame<T, float> ? k0 + 8 * (i / 4) + t + 4 * (i % 2)
                                   : k0 + 16 * (i / 4) + 2 * t + (i % 2) + 8 * ((i / 2) % 2);
    const int n = isSame<T, float> ? n0 + 32 * ((i / 2) % 2) + 4 * g : n0 + 8 * g;
    const T* src = b + k * p.b.strideRow + n * p.b.strideCol;
    if (k >= p.k)
      return make_uint4(0, 0, 0, 0);
    return BAccess == Access::ColContiguous && n + kVec <= p.n ? loadStreaming(src)
                                                               : gatherVector(src, p.b.strideCol, p.n - n);
  }
}

template <typename T, Access BAccess>
__device__ __forceinline__ void loadSlice(uint4 (&v)[8], const GemmParams& p, const T* b, int n0,
                                          int k0, int lane) {
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i] = loadSliceVector<T, BAccess>(p, b, n0, k0, lane, i);
}

// The A-operand (B^T) fragment of k step s (0, 1) and subtile j (0..3) of a slice.
template <typename T, Access BAccess>
__device__ __forceinline__ void sliceFragment(unsigned (&a)[4], const uint4 (&v)[8], int s, int j) {
  if constexpr (BAccess == Access::RowContiguous) {
    a[0] = word(v[2 * j], 2 * s);
    a[1] = word(v[2 * j + 1], 2 * s);
    a[2] = word(v[2 * j], 2 * s + 1);
    a[3] = word(v[2 * j + 1], 2 * s + 1);
  } else if constexpr (isSame<T, float>) {
    const uint4& low = v[4 * s + 2 * (j / 2)];  // k = t
    const uint4& high = v[4 * s + 2 * (j / 2) + 1]; // k = t + 4
    a[0] = word(low, 2 * (j % 2));
    a[1] = word(low, 2 * (j % 2) + 1);
    a[2] = word(high, 2 * (j % 2));
    a[3] = word(high, 2 * (j % 2) + 1);
  } else {
    a[0] = permute(word(v[4 * s], j), word(v[4 * s + 1], j), kLowHalves);
    a[1] = permute(word(v[4 * s], j), word(v[4 * s + 1], j), kHighHalves);
    a[2] = permute(word(v[4 * s + 2], j), word(v[4 * s + 3], j), kLowHalves);
    a[3] = permute(word(v[4 * s + 2], j), word(v[4 * s + 3], j), kHighHalves);
  }
}

// The B-operand (A^T) fragment of k step s for rows 8 mt.. of staged A: two 32-bit words, each
// two 16-bit elements or one float, at the k the slice's numbering gives lane (g, t).
template <typename T, Access BAccess>
__device__ __forceinline__ void stagedFragment(unsigned (&b)[2], const T* aSlice, int aStride, int mt, int s,
                                               int lane) {
  const int g = lane / 4, t = lane % 4;
  const T* row = aSlice + (8 * mt + g) * aStride;
  if constexpr (BAccess == Access::RowContiguous) {
    const uint4 q = *reinterpret_cast<const uint4*>(row + kSmallMVector<T> * t);
    b[0] = word(q, 2 * s);
    b[1] = word(q, 2 * s + 1);
  } else {
    const unsigned* words = reinterpret_cast<const unsigned*>(row);
    b[0] = words[8 * s + t];
    b[1] = words[8 * s + t + 4];
  }
}

// acc += slice x A[:, slice rows] for 16-bit T; `aSlice` points at the slice's first column of
// staged A.
template <typename T, int MT, Access BAccess>
__device__ __forceinline__ void multiplySlice(float (&acc)[4][MT][4], const uint4 (&v)[8],
                                              const T* aSlice, int aStride, int lane) {
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    unsigned bf[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) stagedFragment<T, BAccess>(bf[mt], aSlice, aStride, mt, s, lane);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      unsigned af[4];
      sliceFragment<T, BAccess>(af, v, s, j);
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) mma16816<T>(acc[j][mt], af, bf[mt][0], bf[mt][1]);
    }
  }
}

// The same for float in 3xTF32, subtile by subtile; each vector of `v` is handed to `reload(i)`
// (which loads the warp's next slice into it) as soon as its last fragment is taken. 3xTF32 needs
// registers that 16-bit T does not (the split halves, each subtile's step sums): with a second
// set of 8 vectors for the next slice, as 16-bit T keeps, the kernel spilled at 128 registers a
// thread. Staged A is split where it is used, for the same reason.
template <int MT, Access BAccess, typename Reload>
__device__ __forceinline__ void multiplySliceTf32x3(float (&acc)[4][MT][4], uint4 (&v)[8], const float* aSlice,
                                                    int aStride, int lane, const Reload& reload) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float step[MT][4] = {};
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      unsigned x[4], aBig[4], aSmall[4];
      sliceFragment<float, BAccess>(x, v, s, j);
#pragma unroll
      for (int i = 0; i < 4; ++i) splitTf32(x[i], aBig[i], aSmall[i]);
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        unsigned y[2], bBig[2], bSmall[2];
        stagedFragment<float, BAccess>(y, aSlice, aStride, mt, s, lane);
        splitTf32(y[0], bBig[0], bSmall[0]);
        splitTf32(y[1], bBig[1], bSmall[1]);
        mma3xTf32(step[mt], aBig, aSmall, bBig, bSmall);
      }
    }
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[j][mt][e] += step[mt][e];
    // Subtile j's vectors: 2j and 2j + 1 (k contiguous); with n contiguous, subtiles 2h and 2h + 1
    // share the four of column half h.
    if constexpr (BAccess == Access::RowContiguous) {
      reload(2 * j);
      reload(2 * j + 1);
    } else if (j % 2 == 1) {
      const int h = j / 2;
      reload(2 * h), reload(2 * h + 1), reload(4 + 2 * h), reload(5 + 2 * h);
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
  constexpr int kBatch = 4, kVec = kSmallMVector<T>;
  const int vectorsPerRow = cols / kVec, vectors = rows * vectorsPerRow;
  for (int i0 = threadIdx.x; i0 < vectors; i0 += kBatch * kSmallMThreads) {
    uint4 x[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * kSmallMThreads, m = i / vectorsPerRow, k = kc + kVec * (i % vectorsPerRow);
      const T* src = a + m * p.a.strideRow + k * p.a.strideCol;
      x[u] = make_uint4(0, 0, 0, 0);
      if (i < vectors && m < p.m)
        x[u] = vectorA && k + kVec <= p.k ? *reinterpret_cast<const uint4*>(src)
                                          : gatherVector(src, p.a.strideCol, p.k - k);
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * kSmallMThreads;
      if (i < vectors)
        *reinterpret_cast<uint4*>(dst + i / vectorsPerRow * stride + kVec * (i % vectorsPerRow)) = x[u];
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

// MT = ceil(M / 8) (1..8; float: 1..2); BAccess: how B (k, n) is laid out (abi.h). Dynamic shared
// memory and the params' split fields come from planGemm (launch.h).
template <typename T, int MT, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemm_small_m_body(const GemmParams& p, const Epilogue& epilogue) {
  static_assert(isTensorCoreType<T> || isSame<T, float>, "gemm_small_m takes __half, __nv_bfloat16 or float");
  static_assert(MT >= 1 && 8 * MT <= (isSame<T, float> ? kSmallMMaxRowsF32 : kSmallMMaxRows),
                "gemm_small_m handles M <= 64 (float: 16)");
  using namespace detail;
  constexpr int kRows = 8 * MT, kTile = kRows * kSmallMTileN, kSlice = kSmallMSlice<T>;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile = blockIdx.x, split = blockIdx.y, batch = blockIdx.z;
  const int n0 = tile * kSmallMTileN;
  const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch;
  const bool vectorA = p.a.strideCol == 1 && p.a.strideRow % kSmallMVector<T> == 0 &&
                       reinterpret_cast<unsigned long long>(a) % 16 == 0;
  const int kBegin = split * p.kPerSplit, kEnd = min(p.k, kBegin + p.kPerSplit);
  const int aStride = p.kChunk + smallMAPadding(BAccess, sizeof(T));
  T* aShared = reinterpret_cast<T*>(dynamicShared());

  // The warp's slices of the split are warp, warp + W, ...; each is loaded one slice ahead of
  // its multiply (and the first before A is staged), so a warp always has a slice of B in flight.
  const int splitSlices = (kEnd - kBegin + kSlice - 1) / kSlice;
  const int chunkSlices = p.kChunk / kSlice;
  float acc[4][MT][4] = {};
  uint4 cur[8];
  int slice = warp;
  if (slice < splitSlices)
    loadSlice<T, BAccess>(cur, p, b, n0, kBegin + kSlice * slice, lane);
  for (int c0 = 0; c0 < splitSlices; c0 += chunkSlices) {
    const int chunkEnd = min(c0 + chunkSlices, splitSlices);
    __syncthreads();
    stageA(aShared, aStride, p, a, vectorA, kBegin + kSlice * c0, kRows, (chunkEnd - c0) * kSlice);
    __syncthreads();
    for (; slice < chunkEnd; slice += kSmallMWarps) {
      const bool more = slice + kSmallMWarps < splitSlices;
      const int nextK = kBegin + kSlice * (slice + kSmallMWarps);
      const T* aSlice = aShared + kSlice * (slice - c0);
      if constexpr (isSame<T, float>) {
        multiplySliceTf32x3<MT, BAccess>(acc, cur, aSlice, aStride, lane, [&](int i) {
          if (more)
            cur[i] = loadSliceVector<T, BAccess>(p, b, n0, nextK, lane, i);
        });
      } else {
        uint4 next[8];
        if (more)
          loadSlice<T, BAccess>(next, p, b, n0, nextK, lane);
        multiplySlice<T, MT, BAccess>(acc, cur, aSlice, aStride, lane);
#pragma unroll
        for (int i = 0; i < 8; ++i)
          cur[i] = next[i];
      }
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
          shared[(8 * mt + 2 * t + e % 2) * kSmallMTileN + smallMColumn<T, BAccess>(j, g + 8 * (e / 2))] =
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
