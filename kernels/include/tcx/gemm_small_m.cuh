#ifndef TCX_GEMM_SMALL_M_CUH
#define TCX_GEMM_SMALL_M_CUH
// gemm_small_m: C = A B for M <= 64 rows of A (decode-time projections), where the GEMM is bound
// by reading B once. The work is a sequence of slices, tile-major: each output tile (64 columns,
// or 32 when B is k-contiguous) is cut along K into slices of 32 rows of 128 bytes of B
// (abi.h). Every block takes an equal, contiguous run of slices (stream-K), so all
// multiprocessors stream the same number of bytes whatever N and K are; a tile whose slices fall
// to several blocks is added up by the last of them to finish, in block order, so results are
// deterministic.
//
// Inside a block the 8 warps take the slices of each tile in turn. Each warp streams its slices,
// with the matching 32 or 64 columns of A, through its own ring of shared-memory slots
// (pipeline.cuh: bulk copies, several slices in flight), and feeds the tensor cores from ldmatrix
// fragments: mma.sync computes C^T = B^T A^T, B^T as the 16 x 16 A operand (n x k), A as the
// 16 x 8 B operand (k x m). At the end of a tile's part the block adds the warps' accumulators in
// a fixed order.
//
// Grid: (blocks, 1, 1) with blocks * kPerSplit covering every slice; block: kSmallMThreads;
// dynamic shared memory smallMSharedBytes(MT, BAccess).

#include "tcx/mma.cuh"
#include "tcx/pipeline.cuh"

namespace tcx {
namespace detail {

template <typename T, int MT, Access BAccess> struct SmallMSlot {
  T b[32][64 + 8];                      // [k][n], or [n][k] when B is k-contiguous
  T a[8 * MT][smallMSliceK(BAccess) + 8]; // [m][k]
};

template <typename T, int MT, Access BAccess, int S> struct alignas(16) SmallMWarpShared {
  SmallMSlot<T, MT, BAccess> ring[S];
  unsigned long long ready[S];
};

// The block's view of the slice sequence: slices per tile, tiles per row of C, the block's range.
struct SliceRange {
  i64 perTile, begin, end;
  int tilesN;

  __device__ i64 tileEnd(i64 slice) const { return min(end, (slice / perTile + 1) * perTile); }

  // The warp's first slice at or after `slice` (a tile boundary or the range's start): the
  // warp's turn among the kSmallMWarps in the first tile part long enough to have one.
  __device__ i64 firstOfWarp(i64 slice, int warp) const {
    for (; slice < end; slice = tileEnd(slice))
      if (slice + warp < tileEnd(slice))
        return slice + warp;
    return end;
  }

  __device__ i64 next(i64 slice, int warp) const {
    return slice + kSmallMWarps < tileEnd(slice) ? slice + kSmallMWarps : firstOfWarp(tileEnd(slice), warp);
  }
};

// Fills one slot with slice `slice`: rows of B and A that are in range and 16-byte aligned come
// by bulk copy, rows out of range are zeroed, anything else (ragged tile edges, strided views) is
// gathered element by element.
template <typename T, int MT, Access BAccess>
__device__ __forceinline__ void fillSlice(SmallMSlot<T, MT, BAccess>& slot, unsigned long long* bar,
                                          const GemmParams& p, const SliceRange& range, i64 slice, bool vectorA) {
  constexpr int kSliceK = smallMSliceK(BAccess), kSliceN = smallMSliceN(BAccess);
  const int lane = threadIdx.x % 32;
  const int tile = static_cast<int>(slice / range.perTile), batch = tile / range.tilesN;
  const int n0 = tile % range.tilesN * kSliceN, k0 = static_cast<int>(slice % range.perTile) * kSliceK;
  const T* a = static_cast<const T*>(p.a.data) + batch * p.a.strideBatch;
  const T* b = static_cast<const T*>(p.b.data) + batch * p.b.strideBatch;
  unsigned bytes = 0;

  // B: lane r holds row r of the slot (k0 + r, or column n0 + r when k-contiguous).
  const bool kRows = BAccess != Access::RowContiguous;
  const int outer = (kRows ? k0 : n0) + lane, inner0 = kRows ? n0 : k0;
  const int outerSize = kRows ? p.k : p.n, innerSize = kRows ? p.n : p.k;
  const i64 outerStride = kRows ? p.b.strideRow : p.b.strideCol, innerStride = kRows ? p.b.strideCol : p.b.strideRow;
  const T* bRow = b + outer * outerStride + inner0 * innerStride;
  const bool bBulk = kBulkCopy && BAccess != Access::Strided && inner0 + 64 <= innerSize;
  if (outer >= outerSize)
    zeroRow(slot.b[lane], 128);
  else if (bBulk)
    bytes += 128;
  else
#pragma unroll
    for (int x = 0; x < 8; ++x)
      reinterpret_cast<uint4*>(slot.b[lane])[x] = gather8(bRow + 8 * x * innerStride, innerStride, innerSize - inner0 - 8 * x);

  // A: rows m = lane, lane + 32.
  const bool aBulk = kBulkCopy && vectorA && k0 + kSliceK <= p.k;
  for (int m = lane; m < 8 * MT; m += 32) {
    const T* aRow = a + m * p.a.strideRow + k0 * p.a.strideCol;
    if (m >= p.m)
      zeroRow(slot.a[m], 2 * kSliceK);
    else if (aBulk)
      bytes += 2 * kSliceK;
    else
#pragma unroll
      for (int x = 0; x < kSliceK / 8; ++x)
        reinterpret_cast<uint4*>(slot.a[m])[x] = gather8(aRow + 8 * x * p.a.strideCol, p.a.strideCol, p.k - k0 - 8 * x);
  }

  fillBegin(bar, __reduce_add_sync(0xffffffffu, bytes));
  if (outer < outerSize && bBulk)
    copyRow(slot.b[lane], bRow, 128, bar);
  if (aBulk)
    for (int m = lane; m < min(8 * MT, p.m); m += 32)
      copyRow(slot.a[m], a + m * p.a.strideRow + k0 * p.a.strideCol, 2 * kSliceK, bar);
}

// acc[i][mt] += (B^T rows 16i.., A^T columns 8mt..) over one slice.
template <typename T, int MT, Access BAccess>
__device__ __forceinline__ void multiplySlice(float (&acc)[smallMSliceN(BAccess) / 16][MT][4],
                                              const SmallMSlot<T, MT, BAccess>& slot) {
  constexpr int kSteps = smallMSliceK(BAccess) / 16, kSubtiles = smallMSliceN(BAccess) / 16;
  const int lane = threadIdx.x % 32, r8 = lane % 8, m8 = lane / 8;
#pragma unroll
  for (int kk = 0; kk < kSteps; ++kk) {
    // A^T fragments: matrix l / 8 is (m 8 (mt + (l / 16)) + 0..7, k 16 kk + 8 ((l / 8) % 2) + 0..7).
    unsigned bf[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; mt += 2) {
      if (mt + 1 < MT) {
        unsigned r[4];
        ldmatrixX4(r, &slot.a[8 * (mt + m8 / 2) + r8][16 * kk + 8 * (m8 % 2)]);
        bf[mt][0] = r[0], bf[mt][1] = r[1], bf[mt + 1][0] = r[2], bf[mt + 1][1] = r[3];
      } else {
        ldmatrixX2(bf[mt], &slot.a[8 * mt + r8][16 * kk + 8 * (m8 % 2)]);
      }
    }
#pragma unroll
    for (int i = 0; i < kSubtiles; ++i) {
      // B^T fragments a0..a3: (n 16i + 0..7 | 8..15) x (k 16 kk + 0..7 | 8..15), n fastest.
      unsigned af[4];
      if constexpr (BAccess == Access::RowContiguous)
        ldmatrixX4(af, &slot.b[16 * i + 8 * (m8 % 2) + r8][16 * kk + 8 * (m8 / 2)]);
      else
        ldmatrixX4Trans(af, &slot.b[16 * kk + 8 * (m8 / 2) + r8][16 * i + 8 * (m8 % 2)]);
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
        mma16816<T>(acc[i][mt], af, bf[mt][0], bf[mt][1]);
    }
  }
}

// Adds the warps' accumulators into warp 0's, in warp order (deterministic), through `scratch`.
template <int kValues> __device__ __forceinline__ void reduceWarps(float* acc, float* scratch) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int w = kSmallMWarps - 1; w >= 0; --w) {
    if (warp == w)
#pragma unroll
      for (int v = 0; v < kValues; ++v)
        scratch[v * 32 + lane] = (w == kSmallMWarps - 1 ? 0.0f : scratch[v * 32 + lane]) + acc[v];
    __syncthreads();
  }
  if (warp == 0)
#pragma unroll
    for (int v = 0; v < kValues; ++v)
      acc[v] = scratch[v * 32 + lane];
  __syncthreads();
}

template <typename T, int MT, Access BAccess, int S, typename Epilogue>
__device__ __forceinline__ void gemmSmallM(const GemmParams& p, const Epilogue& epilogue) {
  constexpr int kSliceK = smallMSliceK(BAccess), kSliceN = smallMSliceN(BAccess);
  constexpr int kSubtiles = kSliceN / 16, kValues = kSubtiles * MT * 4;
  using WarpShared = SmallMWarpShared<T, MT, BAccess, S>;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  WarpShared& sh = reinterpret_cast<WarpShared*>(dynamicShared())[warp];
  float* scratch = reinterpret_cast<float*>(dynamicShared() + kSmallMWarps * sizeof(WarpShared));

  SliceRange range;
  range.tilesN = (p.n + kSliceN - 1) / kSliceN;
  range.perTile = (p.k + kSliceK - 1) / kSliceK;
  const i64 perBlock = p.kPerSplit / kSliceK, total = range.perTile * range.tilesN * p.batch;
  range.begin = blockIdx.x * perBlock;
  range.end = min(total, range.begin + perBlock);
  const T* aBase = static_cast<const T*>(p.a.data);
  const bool vectorA = p.a.strideCol == 1 && p.a.strideRow % 8 == 0 && (p.batch == 1 || p.a.strideBatch % 8 == 0) &&
                       reinterpret_cast<unsigned long long>(aBase) % 16 == 0;

  if (lane < S)
    initSlot(&sh.ready[lane]);
  fenceSlotInit();
  i64 fill = range.firstOfWarp(range.begin, warp), use = fill;
  for (int s = 0; s < S && fill < range.end; ++s, fill = range.next(fill, warp))
    fillSlice<T, MT, BAccess>(sh.ring[s], &sh.ready[s], p, range, fill, vectorA);

  int step = 0;
  for (i64 part = range.begin; part < range.end; part = range.tileEnd(part)) {
    float acc[kSubtiles][MT][4] = {};
    for (; use < range.tileEnd(part); use = range.next(use, warp), ++step) {
      const int slot = step % S;
      waitSlot(&sh.ready[slot], step / S % 2);
      multiplySlice<T, MT, BAccess>(acc, sh.ring[slot]);
      releaseSlot();
      if (fill < range.end) {
        fillSlice<T, MT, BAccess>(sh.ring[slot], &sh.ready[slot], p, range, fill, vectorA);
        fill = range.next(fill, warp);
      }
    }
    reduceWarps<kValues>(&acc[0][0][0], scratch);
    if (warp != 0)
      continue;

    // Warp 0 finishes the tile part: element (i, mt, e) of lane (g, t) is n = n0 + 16i + g +
    // 8 (e / 2), m = 8 mt + 2t + e % 2.
    const int tile = static_cast<int>(part / range.perTile), batch = tile / range.tilesN;
    const int n0 = tile % range.tilesN * kSliceN;
    const i64 firstSlice = tile * range.perTile;
    const int firstBlock = static_cast<int>(firstSlice / perBlock);
    const int blocks = static_cast<int>((firstSlice + range.perTile - 1) / perBlock) - firstBlock + 1;
    auto finish = [&](int v, float sum) {
      const int i = v / (MT * 4), mt = v / 4 % MT, e = v % 4;
      const int n = n0 + 16 * i + g + 8 * (e / 2), m = 8 * mt + 2 * t + e % 2;
      if (m < p.m && n < p.n)
        epilogue(batch, m, n, sum);
    };
    if (blocks == 1) {
#pragma unroll
      for (int v = 0; v < kValues; ++v)
        finish(v, (&acc[0][0][0])[v]);
      continue;
    }

    // Split tile: publish this block's part; the last of the tile's blocks adds them in order.
    unsigned* counters = static_cast<unsigned*>(p.workspace);
    const i64 tiles = i64{range.tilesN} * p.batch, counterBytes = (tiles * 4 + 255) / 256 * 256;
    float* partials = reinterpret_cast<float*>(static_cast<char*>(p.workspace) + counterBytes) +
                      tile * i64{p.splitK} * kValues * 32;
#pragma unroll
    for (int v = 0; v < kValues; ++v)
      partials[((blockIdx.x - firstBlock) * kValues + v) * 32 + lane] = (&acc[0][0][0])[v];
    __threadfence();
    __syncwarp();
    unsigned arrived = 0;
    if (lane == 0)
      arrived = atomicAdd(&counters[tile], 1u);
    if (__shfl_sync(0xffffffffu, arrived, 0) != static_cast<unsigned>(blocks - 1))
      continue;
    __threadfence();
#pragma unroll
    for (int v = 0; v < kValues; ++v) {
      float sum = 0.0f;
      for (int s = 0; s < blocks; ++s)
        sum += __ldcg(partials + (s * kValues + v) * 32 + lane);
      finish(v, sum);
    }
    if (lane == 0)
      counters[tile] = 0;
  }
}

} // namespace detail

// MT = ceil(M / 8) (1..8); BAccess: how B (k, n) is laid out (abi.h). Launch and split fields
// come from planGemm (launch.h).
template <typename T, int MT, Access BAccess, typename Epilogue>
__device__ __forceinline__ void gemm_small_m_body(const GemmParams& p, const Epilogue& epilogue) {
  static_assert(isTensorCoreType<T>, "gemm_small_m takes __half or __nv_bfloat16; use gemm_tiled");
  static_assert(MT >= 1 && MT <= 8, "gemm_small_m handles M <= 64");
  constexpr int S = smallMStages(MT, BAccess);
  static_assert(sizeof(detail::SmallMWarpShared<T, MT, BAccess, S>) == smallMWarpBytes(MT, BAccess),
                "abi.h sizes the shared memory");
  detail::gemmSmallM<T, MT, BAccess, S>(p, epilogue);
}

} // namespace tcx

#endif // TCX_GEMM_SMALL_M_CUH
