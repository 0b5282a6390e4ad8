#ifndef TCX_GEMM_TILED_CUH
#define TCX_GEMM_TILED_CUH
// gemm_tiled: C = A B for any M, N, K and any strides, on tensor cores. __half and __nv_bfloat16
// take mma.sync m16n8k16. float takes m16n8k8 on tf32 three times (3xTF32): each operand x is split
// into big = tf32(x) and small = x - big (read by the tensor cores as tf32, splitTf32 in mma.cuh),
// and acc += a_small b_big + a_big b_small + a_big b_big. The product it drops, a_small b_small, is
// about 2^-22 of a b, and small's truncation at most 2^-21, about fp32's own rounding error,
// so results match an fp32 reference as PyTorch's default fp32 matmul (no tf32) does, at tensor-
// core rather than CUDA-core speed.
//
// Tiles of kTileRows x kTileRows outputs (kTiledLarge or kTiledSmall, abi.h says when each). Grid:
// (ceil(N / kTileRows), ceil(M / kTileRows), batch x splitK), block tiledThreads(kTileRows), dynamic
// shared memory tiledSharedBytes(sizeof(T), kTileRows) (planGemm in launch.h). Each step of the
// kTiledStages-deep cp.async pipeline stages kTiledRowBytes of K of both operands (64 16-bit or 32
// float elements).
// A with k contiguous and B with either n or k contiguous take 16-byte asynchronous copies; any
// other view is gathered element by element (correct, slow).
//
// Split-K (p.splitK > 1; blockIdx.z / batch is the split, p.kPerSplit a multiple of the K step):
// each block writes its partial tile to the workspace and the last of a tile's blocks to arrive
// (counted atomically) sums the splits in split order, so the result does not depend on arrival
// order, runs the epilogue and leaves the counter at zero for the next launch. Workspace (abi.h):
// the counters, then per tile splitK x kTileRows x kTileRows floats.

#include "tcx/epilogue.cuh"
#include "tcx/mma.cuh"
#include "tcx/split_k.cuh"

namespace tcx {
namespace detail {

// Shared memory is addressed in 16-bit units: a float is two. K-major tiles (A; B with k
// contiguous) are rows of kTiledRowBytes; 16-bit B with n contiguous is the tile's columns a row.
inline constexpr int kTiledKUnits = kTiledRowBytes / 2;

// Unit offset of (row, col) in a tile whose rows are kRowUnits 16-bit units (at least 64). Chunks
// of 8 units (16 bytes) stay contiguous for ldmatrix and cp.async; XOR-ing the chunk index with
// the row spreads the 8 rows one ldmatrix reads over all 32 banks.
template <int kRowUnits> __device__ __forceinline__ int swizzle(int row, int col) {
  return row * kRowUnits + (((col >> 3) ^ (row & 7)) << 3) + (col & 7);
}

// Bytes of a 16-byte chunk that lie inside the operand: `valid` of its elements are.
template <typename T> __device__ __forceinline__ int chunkBytes(bool rowInside, int valid) {
  constexpr int kChunk = 16 / sizeof(T);
  return rowInside ? max(0, min(kChunk, valid)) * static_cast<int>(sizeof(T)) : 0;
}

// float B with n contiguous is staged [k][kTileN + kTiledBPadF32]: ldmatrix's transpose moves
// 16-bit halves, so those fragments are read element by element, and the padding puts a warp's 32
// reads (4 rows of k, 8 columns) on distinct banks (both tile widths are 8 banks past a multiple of
// 32 a row).
template <typename T, int kTileN> __device__ __forceinline__ int nMajorOffset(int k, int n) {
  if constexpr (isSame<T, float>)
    return 2 * (k * (kTileN + kTiledBPadF32) + n);
  else
    return swizzle<kTileN>(k, n);
}

// A tile of kRows rows (r0.. of the operand) by one K step (k0..), k contiguous in memory at
// `base + r * rowStride + k`, into `dst` K-major. `limitRows`: the operand's rows.
//
// The trip count is static: a thread's chunks share one column and lie kRowsPerPass rows apart,
// so the loop unrolls and its column arithmetic is done once. (A loop from threadIdx.x stepping
// by the block compiled to a general loop with a remainder, about 300 instructions a stage.)
template <typename T, int kRows, int kThreads>
__device__ __forceinline__ void loadKMajor(unsigned short* dst, const T* base, i64 rowStride, int r0, int limitRows,
                                           int k0, int limitK) {
  constexpr int kChunk = 16 / sizeof(T), kChunksPerRow = kTiledRowBytes / 16;
  constexpr int kRowsPerPass = kThreads / kChunksPerRow;
  static_assert(kRows % kRowsPerPass == 0, "every thread stages the same number of chunks");
  const int rFirst = threadIdx.x / kChunksPerRow, col = kChunk * (threadIdx.x % kChunksPerRow);
  const int valid = limitK - (k0 + col);
  const T* src = base + (r0 + rFirst) * rowStride + k0 + col;
#pragma unroll
  for (int i = 0; i < kRows / kRowsPerPass; ++i) {
    const int r = rFirst + i * kRowsPerPass;
    const int bytes = chunkBytes<T>(r0 + r < limitRows, valid);
    cpAsync16(dst + swizzle<kTiledKUnits>(r, col * (sizeof(T) / 2)), bytes ? src + i * kRowsPerPass * rowStride : base,
              bytes);
  }
}

// The same for any strides, element by element; `rowFastest` walks the tile's rows fastest (the
// operand's contiguous dimension, so the loads coalesce).
template <typename T, int kRows, int kThreads>
__device__ __forceinline__ void gatherKMajor(unsigned short* dst, const T* base, i64 rowStride, i64 kStride, int r0,
                                             int limitRows, int k0, int limitK, bool rowFastest) {
  constexpr int kElems = kTiledRowBytes / sizeof(T);
  for (int e = threadIdx.x; e < kRows * kElems; e += kThreads) {
    const int r = rowFastest ? e % kRows : e / kElems, col = rowFastest ? e / kRows : e % kElems;
    const int row = r0 + r, k = k0 + col;
    *reinterpret_cast<T*>(dst + swizzle<kTiledKUnits>(r, col * (sizeof(T) / 2))) =
        row < limitRows && k < limitK ? base[row * rowStride + k * kStride] : from_float<T>(0.0f);
  }
}

template <typename T, Access AAccess, int kTileRows>
__device__ __forceinline__ void loadTileA(unsigned short* dst, const GemmParams& p, const T* a, int m0, int k0) {
  constexpr int kThreads = tiledThreads(kTileRows);
  if constexpr (AAccess == Access::ColContiguous)
    loadKMajor<T, kTileRows, kThreads>(dst, a, p.a.strideRow, m0, p.m, k0, p.k);
  else
    gatherKMajor<T, kTileRows, kThreads>(dst, a, p.a.strideRow, p.a.strideCol, m0, p.m, k0, p.k,
                                         AAccess == Access::RowContiguous);
}

// B's tile (rows k0.., cols n0..): K-major ([n][k]) when k is contiguous, else n-major ([k][n]).
template <typename T, Access BAccess, int kTileN>
__device__ __forceinline__ void loadTileB(unsigned short* dst, const GemmParams& p, const T* b, int n0, int k0) {
  constexpr int kElems = kTiledRowBytes / sizeof(T), kChunk = 16 / sizeof(T), kThreads = tiledThreads(kTileN);
  if constexpr (BAccess == Access::RowContiguous) {
    loadKMajor<T, kTileN, kThreads>(dst, b, p.b.strideCol, n0, p.n, k0, p.k);
  } else if constexpr (BAccess == Access::ColContiguous) {
    // As loadKMajor: a thread's chunks share a column, kRowsPerPass rows of K apart.
    constexpr int kChunksPerRow = kTileN / kChunk, kRowsPerPass = kThreads / kChunksPerRow;
    static_assert(kElems % kRowsPerPass == 0, "every thread stages the same number of chunks");
    const int rFirst = threadIdx.x / kChunksPerRow, col = kChunk * (threadIdx.x % kChunksPerRow);
    const int valid = p.n - (n0 + col);
    const T* src = b + (k0 + rFirst) * p.b.strideRow + n0 + col;
#pragma unroll
    for (int i = 0; i < kElems / kRowsPerPass; ++i) {
      const int r = rFirst + i * kRowsPerPass;
      const int bytes = chunkBytes<T>(k0 + r < p.k, valid);
      cpAsync16(dst + nMajorOffset<T, kTileN>(r, col), bytes ? src + i * kRowsPerPass * p.b.strideRow : b, bytes);
    }
  } else {
    for (int e = threadIdx.x; e < kElems * kTileN; e += kThreads) {
      const int r = e / kTileN, col = e % kTileN, k = k0 + r, n = n0 + col;
      *reinterpret_cast<T*>(dst + nMajorOffset<T, kTileN>(r, col)) =
          k < p.k && n < p.n ? b[k * p.b.strideRow + n * p.b.strideCol] : from_float<T>(0.0f);
    }
  }
}

// Tiles in groups of 8 along M, so consecutive blocks share B columns while they sit in L2.
__device__ __forceinline__ void groupedTile(int& tileM, int& tileN) {
  constexpr int kGroup = 8;
  const int id = blockIdx.y * gridDim.x + blockIdx.x;
  const int perGroup = kGroup * gridDim.x, firstM = id / perGroup * kGroup;
  const int groupRows = min(static_cast<int>(gridDim.y) - firstM, kGroup);
  tileM = firstM + id % perGroup % groupRows;
  tileN = id % perGroup / groupRows;
}

// What a block of a tiled GEMM (gemm_tiled, gemm_wgmma_f32) computes: its batch and K split (grid
// z), the origin of its kTileM x kTileN output tile and its K steps of kKElems from kBegin.
struct BlockTile {
  int batch, split, m0, n0, kBegin, kTiles;
};

template <int kTileM, int kTileN, int kKElems> __device__ __forceinline__ BlockTile blockTile(const GemmParams& p) {
  BlockTile t;
  t.batch = blockIdx.z % p.batch, t.split = blockIdx.z / p.batch;
  int tileM, tileN;
  groupedTile(tileM, tileN);
  t.m0 = tileM * kTileM, t.n0 = tileN * kTileN;
  t.kBegin = t.split * p.kPerSplit;
  t.kTiles = (min(p.k, t.kBegin + p.kPerSplit) - t.kBegin + kKElems - 1) / kKElems;
  return t;
}

// B's fragments for one 32-byte step of K (ks) and the warp's four 8-column tiles:
// b[ni] = {b0, b1} as mma.cuh lays them out.
template <typename T, Access BAccess, int kTileN>
__device__ __forceinline__ void loadFragmentsB(unsigned (&b)[4][2], const unsigned short* bs, int ks, int warpN,
                                               int lane) {
  if constexpr (BAccess == Access::RowContiguous || !isSame<T, float>) {
#pragma unroll
    for (int pair = 0; pair < 2; ++pair) {
      unsigned r[4];
      if constexpr (BAccess == Access::RowContiguous)
        ldmatrixX4(r, bs + swizzle<kTiledKUnits>(warpN * 32 + pair * 16 + lane % 8 + lane / 16 * 8,
                                                 ks * 16 + (lane / 8) % 2 * 8));
      else
        ldmatrixX4Trans(r, bs + swizzle<kTileN>(ks * 16 + lane % 8 + (lane / 8) % 2 * 8,
                                                 warpN * 32 + pair * 16 + lane / 16 * 8));
      b[2 * pair][0] = r[0];
      b[2 * pair][1] = r[1];
      b[2 * pair + 1][0] = r[2];
      b[2 * pair + 1][1] = r[3];
    }
  } else {
    const int g = lane / 4, t = lane % 4;
    const unsigned* words = reinterpret_cast<const unsigned*>(bs);
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      const int n = warpN * 32 + ni * 8 + g;
      b[ni][0] = words[nMajorOffset<float, kTileN>(ks * 8 + t, n) / 2];
      b[ni][1] = words[nMajorOffset<float, kTileN>(ks * 8 + t + 4, n) / 2];
    }
  }
}

// acc += A B for one 32-byte step of K: one m16n8k16 per tile for 16-bit T; for float, three
// m16n8k8 tf32 (3xTF32, the header says why) with B already split into bBig (b) and bSmall.
template <typename T>
__device__ __forceinline__ void mmaTiles(float (&acc)[4][4], const unsigned (&a)[4], const unsigned (&b)[4][2],
                                         const unsigned (&bSmall)[4][2]) {
  if constexpr (isSame<T, float>) {
    unsigned aBig[4], aSmall[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) splitTf32(a[i], aBig[i], aSmall[i]);
    // The tensor cores add into their accumulator rounding toward zero, which over a long K
    // loses about as much as tf32 itself: each step's three products are summed apart and
    // added to acc on the CUDA cores, rounding to nearest.
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      float step[4] = {};
      mma3xTf32(step, aBig, aSmall, b[ni], bSmall[ni]);
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[ni][e] += step[e];
    }
  } else {
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) mma16816<T>(acc[ni], a, b[ni][0], b[ni][1]);
  }
}

// Hands the block's accumulators to the epilogue, through the split-K handshake when there is
// one. Element e of acc[mi][ni] is output (mBase + 16 mi + g + 8 (e / 2), nBase + 8 ni + 2 t + e % 2).
template <int kTileRows, int kFragsM, typename Epilogue>
__device__ __forceinline__ void tiledFinish(const GemmParams& p, const Epilogue& epilogue,
                                            float (&acc)[kFragsM][4][4], int batch, int split, int mBase, int nBase) {
  constexpr int kThreads = tiledThreads(kTileRows), kPerThread = kFragsM * 16;
  static_assert(kPerThread * kThreads == kTileRows * kTileRows, "the block's accumulators are its tile");
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  if (p.splitK > 1) {
    const unsigned tile = (batch * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (!splitKCombine<kThreads, kPerThread, kTileRows == kTiledSmall ? 2 : 1>(&acc[0][0][0], p.workspace, tile,
                                                                               split, p.splitK))
      return;
  }
  runEpilogue<8, kPerThread>(epilogue, [&](int i) {
    const int mi = i / 16, ni = i / 4 % 4, e = i % 4;
    const int m = mBase + mi * 16 + g + 8 * (e / 2);
    const int n = nBase + ni * 8 + 2 * t + e % 2;
    return EpilogueAt{batch, m, n, acc[mi][ni][e], m < p.m && n < p.n};
  });
}

} // namespace detail

// T: __half, __nv_bfloat16 or float. AAccess describes A (m, k), BAccess describes B (k, n);
// Strided is always correct. kTileRows: kTiledLarge or kTiledSmall.
template <typename T, Access AAccess, Access BAccess, int kTileRows, typename Epilogue>
__device__ __forceinline__ void gemm_tiled_body(const GemmParams& p, const Epilogue& epilogue) {
  using namespace detail;
  static_assert(kTileRows == kTiledLarge || kTileRows == kTiledSmall, "gemm_tiled's two tile shapes");
  // 2 x kWarpsN warps of kFragsM x 16 rows and 32 columns.
  constexpr int kWarpsN = kTileRows / 32, kFragsM = kTileRows / 32;
  constexpr int kElems = kTiledRowBytes / sizeof(T);
  constexpr int kAUnits = kTileRows * kTiledKUnits;
  constexpr int kStageUnits = tiledStageBytes(sizeof(T), kTileRows) / 2;
  // float's three products a step need the registers an unrolled K step would take.
  constexpr int kUnrollK = isSame<T, float> ? 1 : kTiledKUnits / 16;
  unsigned short* stages = reinterpret_cast<unsigned short*>(dynamicShared());
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpM = warp / kWarpsN, warpN = warp % kWarpsN;
  const BlockTile tile = blockTile<kTileRows, kTileRows, kElems>(p);
  const int batch = tile.batch, split = tile.split, m0 = tile.m0, n0 = tile.n0, kBegin = tile.kBegin;
  const int kTiles = tile.kTiles;
  const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch;
  auto load = [&](int stage, int kt) {
    loadTileA<T, AAccess, kTileRows>(stages + stage * kStageUnits, p, a, m0, kBegin + kt * kElems);
    loadTileB<T, BAccess, kTileRows>(stages + stage * kStageUnits + kAUnits, p, b, n0, kBegin + kt * kElems);
  };

#pragma unroll
  for (int s = 0; s < kTiledStages - 1; ++s) {
    if (s < kTiles)
      load(s, s);
    cpAsyncCommit();
  }

  float acc[kFragsM][4][4] = {};
  for (int kt = 0; kt < kTiles; ++kt) {
    cpAsyncWait<kTiledStages - 2>();
    // One barrier per step: it publishes stage kt and frees the stage read in step kt - 1,
    // which the prefetch below refills.
    __syncthreads();
    if (kt + kTiledStages - 1 < kTiles)
      load((kt + kTiledStages - 1) % kTiledStages, kt + kTiledStages - 1);
    cpAsyncCommit();

    const unsigned short* as = stages + kt % kTiledStages * kStageUnits;
    const unsigned short* bs = as + kAUnits;
#pragma unroll kUnrollK
    for (int ks = 0; ks < kTiledKUnits / 16; ++ks) {
      unsigned bf[4][2], bSmall[4][2] = {};
      loadFragmentsB<T, BAccess, kTileRows>(bf, bs, ks, warpN, lane);
      if constexpr (isSame<T, float>)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
#pragma unroll
          for (int j = 0; j < 2; ++j) splitTf32(bf[ni][j], bf[ni][j], bSmall[ni][j]);
#pragma unroll
      for (int mi = 0; mi < kFragsM; ++mi) {
        unsigned af[4];
        ldmatrixX4(af, as + swizzle<kTiledKUnits>(warpM * kFragsM * 16 + mi * 16 + lane % 16, ks * 16 + lane / 16 * 8));
        mmaTiles<T>(acc[mi], af, bf, bSmall);
      }
    }
  }
  cpAsyncWait<0>();
  tiledFinish<kTileRows>(p, epilogue, acc, batch, split, m0 + warpM * kFragsM * 16, n0 + warpN * 32);
}

} // namespace tcx

#endif // TCX_GEMM_TILED_CUH
