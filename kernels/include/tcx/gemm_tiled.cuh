#ifndef TCX_GEMM_TILED_CUH
#define TCX_GEMM_TILED_CUH
// gemm_tiled: C = A B for any M, N, K and any strides. 16-bit types run on tensor cores
// (mma.sync through ldmatrix from swizzled shared memory, a kTiledStages-deep cp.async pipeline); float
// runs on the CUDA cores in fp32, never tf32, so results match an fp32 reference.
//
// Grid: (ceil(N / tileN), ceil(M / tileM), batch), block: kTiledThreads, dynamic shared memory
// tiledSharedBytes(sizeof(T)) (planGemm in launch.h). A with k contiguous and B with either n or k
// contiguous take 16-byte asynchronous copies; any other view is gathered element by element
// (correct, slow).

#include "tcx/mma.cuh"

namespace tcx {
namespace detail {

inline constexpr int kTiledStageElems = (kTiledM + kTiledN) * kTiledK;

// Element offset of (row, col) in a tile of rows of kRowElems 16-bit elements. Chunks of 8
// elements (16 bytes) stay contiguous for ldmatrix; XOR-ing the chunk index with the row spreads
// the 8 rows one ldmatrix reads over all 32 banks (rows of 64 bytes pair up, hence row / 2).
template <int kRowElems> __device__ __forceinline__ int swizzle(int row, int col) {
  const int flip = kRowElems >= 64 ? row & 7 : (row >> 1) & 3;
  return row * kRowElems + (((col >> 3) ^ flip) << 3) + (col & 7);
}

// Bytes of a 16-byte chunk that lie inside the operand: `valid` of its 8 elements are.
__device__ __forceinline__ int chunkBytes(bool rowInside, int valid, int elemBytes) {
  return rowInside ? max(0, min(8, valid)) * elemBytes : 0;
}

// A's tile (rows m0.., cols k0..) into `dst` as [m][k]. The gather path walks the operand's
// contiguous dimension fastest so its loads coalesce.
template <typename T, Access AAccess>
__device__ __forceinline__ void loadTileA(T* dst, const GemmParams& p, const T* a, int m0, int k0) {
  if constexpr (AAccess == Access::ColContiguous) {
    for (int c = threadIdx.x; c < kTiledM * kTiledK / 8; c += kTiledThreads) {
      const int r = c / (kTiledK / 8), col = 8 * (c % (kTiledK / 8));
      const int bytes = chunkBytes(m0 + r < p.m, p.k - (k0 + col), sizeof(T));
      cpAsync16(dst + swizzle<kTiledK>(r, col), bytes ? a + (m0 + r) * p.a.strideRow + k0 + col : a, bytes);
    }
  } else {
    for (int e = threadIdx.x; e < kTiledM * kTiledK; e += kTiledThreads) {
      const bool mFastest = AAccess == Access::RowContiguous;
      const int r = mFastest ? e % kTiledM : e / kTiledK, col = mFastest ? e / kTiledM : e % kTiledK;
      const int m = m0 + r, k = k0 + col;
      dst[swizzle<kTiledK>(r, col)] =
          m < p.m && k < p.k ? a[m * p.a.strideRow + k * p.a.strideCol] : from_float<T>(0.0f);
    }
  }
}

// B's tile (rows k0.., cols n0..): [n][k] when k is contiguous, else [k][n].
template <typename T, Access BAccess>
__device__ __forceinline__ void loadTileB(T* dst, const GemmParams& p, const T* b, int n0, int k0) {
  if constexpr (BAccess == Access::ColContiguous) {
    for (int c = threadIdx.x; c < kTiledK * kTiledN / 8; c += kTiledThreads) {
      const int r = c / (kTiledN / 8), col = 8 * (c % (kTiledN / 8));
      const int bytes = chunkBytes(k0 + r < p.k, p.n - (n0 + col), sizeof(T));
      cpAsync16(dst + swizzle<kTiledN>(r, col), bytes ? b + (k0 + r) * p.b.strideRow + n0 + col : b, bytes);
    }
  } else if constexpr (BAccess == Access::RowContiguous) {
    for (int c = threadIdx.x; c < kTiledN * kTiledK / 8; c += kTiledThreads) {
      const int r = c / (kTiledK / 8), col = 8 * (c % (kTiledK / 8));
      const int bytes = chunkBytes(n0 + r < p.n, p.k - (k0 + col), sizeof(T));
      cpAsync16(dst + swizzle<kTiledK>(r, col), bytes ? b + (n0 + r) * p.b.strideCol + k0 + col : b, bytes);
    }
  } else {
    for (int e = threadIdx.x; e < kTiledK * kTiledN; e += kTiledThreads) {
      const int r = e / kTiledN, col = e % kTiledN, k = k0 + r, n = n0 + col;
      dst[swizzle<kTiledN>(r, col)] =
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

template <typename T, Access AAccess, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemmTiledTensorCore(const GemmParams& p, const Epilogue& epilogue) {
  T* stages = reinterpret_cast<T*>(dynamicShared());
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int warpM = warp / 4, warpN = warp % 4; // 2 x 4 warps of 64 x 32
  const int batch = blockIdx.z;
  int tileM, tileN;
  groupedTile(tileM, tileN);
  const int m0 = tileM * kTiledM, n0 = tileN * kTiledN;
  const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch;
  const int kTiles = (p.k + kTiledK - 1) / kTiledK;
  auto load = [&](int stage, int kt) {
    loadTileA<T, AAccess>(stages + stage * kTiledStageElems, p, a, m0, kt * kTiledK);
    loadTileB<T, BAccess>(stages + stage * kTiledStageElems + kTiledM * kTiledK, p, b, n0, kt * kTiledK);
  };

#pragma unroll
  for (int s = 0; s < kTiledStages - 1; ++s) {
    if (s < kTiles)
      load(s, s);
    cpAsyncCommit();
  }

  float acc[4][4][4] = {};
  for (int kt = 0; kt < kTiles; ++kt) {
    cpAsyncWait<kTiledStages - 2>();
    // One barrier per step: it publishes stage kt and frees the stage read in step kt - 1,
    // which the prefetch below refills.
    __syncthreads();
    if (kt + kTiledStages - 1 < kTiles)
      load((kt + kTiledStages - 1) % kTiledStages, kt + kTiledStages - 1);
    cpAsyncCommit();

    const T* as = stages + kt % kTiledStages * kTiledStageElems;
    const T* bs = as + kTiledM * kTiledK;
#pragma unroll
    for (int ks = 0; ks < kTiledK / 16; ++ks) {
      unsigned af[4][4], bf[4][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
        ldmatrixX4(af[mi], as + swizzle<kTiledK>(warpM * 64 + mi * 16 + lane % 16, ks * 16 + lane / 16 * 8));
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {
        unsigned r[4];
        if constexpr (BAccess == Access::RowContiguous)
          ldmatrixX4(r, bs + swizzle<kTiledK>(warpN * 32 + pair * 16 + lane % 8 + lane / 16 * 8,
                                       ks * 16 + (lane / 8) % 2 * 8));
        else
          ldmatrixX4Trans(r, bs + swizzle<kTiledN>(ks * 16 + lane % 8 + (lane / 8) % 2 * 8,
                                             warpN * 32 + pair * 16 + lane / 16 * 8));
        bf[2 * pair][0] = r[0];
        bf[2 * pair][1] = r[1];
        bf[2 * pair + 1][0] = r[2];
        bf[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
          mma16816<T>(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
    }
  }
  cpAsyncWait<0>();

#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int m = m0 + warpM * 64 + mi * 16 + g + 8 * (e / 2);
        const int n = n0 + warpN * 32 + ni * 8 + 2 * t + e % 2;
        if (m < p.m && n < p.n)
          epilogue(batch, m, n, acc[mi][ni][e]);
      }
}

inline constexpr int kSimtM = 64, kSimtN = 64, kSimtK = 16;

// fp32 on the CUDA cores: 64 x 64 tiles, 4 x 4 outputs per thread, register-prefetched double
// buffering. Element loads walk each operand's contiguous dimension fastest.
template <Access AAccess, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemmTiledSimt(const GemmParams& p, const Epilogue& epilogue) {
  constexpr int kPerThread = kSimtM * kSimtK / kTiledThreads;
  __shared__ float as[2][kSimtK][kSimtM + 4];
  __shared__ float bs[2][kSimtK][kSimtN + 4];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16, batch = blockIdx.z;
  int tileM, tileN;
  groupedTile(tileM, tileN);
  const int m0 = tileM * kSimtM, n0 = tileN * kSimtN;
  const float* a = static_cast<const float*>(p.a.data) + batch * p.a.strideBatch;
  const float* b = static_cast<const float*>(p.b.data) + batch * p.b.strideBatch;
  const int kTiles = (p.k + kSimtK - 1) / kSimtK;

  // Element e of a tile load as (row, col) of the 64 x 16 (A) or 16 x 64 (B) tile.
  auto aCoord = [](int e, int& m, int& k) {
    const bool mFastest = AAccess == Access::RowContiguous;
    m = mFastest ? e % kSimtM : e / kSimtK;
    k = mFastest ? e / kSimtM : e % kSimtK;
  };
  auto bCoord = [](int e, int& k, int& n) {
    const bool kFastest = BAccess == Access::RowContiguous;
    k = kFastest ? e % kSimtK : e / kSimtN;
    n = kFastest ? e / kSimtK : e % kSimtN;
  };
  float ra[kPerThread], rb[kPerThread];
  auto fetch = [&](int kt) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      int m, k, kb, n;
      aCoord(threadIdx.x + i * kTiledThreads, m, k);
      bCoord(threadIdx.x + i * kTiledThreads, kb, n);
      m += m0, k += kt * kSimtK, kb += kt * kSimtK, n += n0;
      ra[i] = m < p.m && k < p.k ? a[m * p.a.strideRow + k * p.a.strideCol] : 0.0f;
      rb[i] = kb < p.k && n < p.n ? b[kb * p.b.strideRow + n * p.b.strideCol] : 0.0f;
    }
  };
  auto publish = [&](int buffer) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      int m, k, kb, n;
      aCoord(threadIdx.x + i * kTiledThreads, m, k);
      bCoord(threadIdx.x + i * kTiledThreads, kb, n);
      as[buffer][k][m] = ra[i];
      bs[buffer][kb][n] = rb[i];
    }
  };

  float acc[4][4] = {};
  fetch(0);
  publish(0);
  __syncthreads();
  for (int kt = 0; kt < kTiles; ++kt) {
    if (kt + 1 < kTiles)
      fetch(kt + 1);
#pragma unroll
    for (int kk = 0; kk < kSimtK; ++kk) {
      float av[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        av[i] = as[kt % 2][kk][ty + 16 * i];
        bv[i] = bs[kt % 2][kk][tx + 16 * i];
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    if (kt + 1 < kTiles)
      publish((kt + 1) % 2);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < p.m && n < p.n)
        epilogue(batch, m, n, acc[i][j]);
    }
}

} // namespace detail

// T: __half and __nv_bfloat16 on tensor cores, float on CUDA cores. AAccess describes A (m, k),
// BAccess describes B (k, n); Strided is always correct.
template <typename T, Access AAccess, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemm_tiled_body(const GemmParams& p, const Epilogue& epilogue) {
  if constexpr (isSame<T, float>)
    detail::gemmTiledSimt<AAccess, BAccess>(p, epilogue);
  else
    detail::gemmTiledTensorCore<T, AAccess, BAccess>(p, epilogue);
}

} // namespace tcx

#endif // TCX_GEMM_TILED_CUH
