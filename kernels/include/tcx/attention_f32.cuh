#ifndef TCX_ATTENTION_F32_CUH
#define TCX_ATTENTION_F32_CUH
// Fused fp32 attention for many query rows (prefill, encoders, window attention), flash-attention
// style on tf32 tensor cores with 3xTF32 (gemm_tiled.cuh says why that matches an fp32 reference):
//   O[b][h][i][:] = softmax_j(score(b, h, i, j, q.k)) @ V[b][h / G][j][:],  G = heads / kvHeads.
// The scores never leave registers, where the unfused form writes and reads them three times.
//
// A block is kF32AttentionWarps warps over one (b, h) and kF32AttentionRows query rows, 16 a warp;
// grid: ceil(sq / kF32AttentionRows) x heads x batch blocks, flattened into x. The block walks K
// and V in tiles of kF32AttentionKeys positions, double-buffered in shared memory by cp.async
// (16-byte copies where K's or V's rows allow, else 4-byte ones). Per tile each warp computes
// S = Q K^T for its rows (m16n8k8), applies ScoreOp, updates the online softmax and adds P V to
// its output accumulators. Q stays in shared memory for the whole walk.
//
// P V needs P as m16n8k8's A fragment, which holds row g at columns t and t + 4, while S's
// accumulator holds row g at columns 2t and 2t + 1. The sum over a tile's keys does not care
// about their order, so the kernel reads key 2t as column t and key 2t + 1 as column t + 4: S's
// registers are P's A fragment as they stand, and V's B fragment reads rows 2t and 2t + 1.
//
// K comes with d contiguous, or (KT) with positions contiguous, as an export that scales K^T before
// Q K^T stores it; each is staged in its own layout. Shared memory (f32AttentionSharedBytes): Q,
// then two stages of K and V, rows padded (D + 4 floats, or kF32AttentionKeyPitch for KT's rows of
// d) so that the 32 lanes of each fragment load fall on distinct banks.
//
// Functors as for attention.cuh: ScoreOp(b, h, i, j, dot) for every (row, position) in range, which
// may return -inf; OutStore(b, h, i, d, v) once per output element. A row whose scores are all -inf
// is NaN, as softmax makes it, or 0 with p.emptyRowsZero (PyTorch's safe softmax).

#include "tcx/mma.cuh"

namespace tcx {
namespace detail {

inline constexpr int kF32AttentionRowsPerWarp = 16;

// An A fragment split for 3xTF32 once, for all the B fragments it meets.
struct SplitFragment {
  unsigned big[4], small[4];
};
__device__ __forceinline__ SplitFragment splitFragment(float a0, float a1, float a2, float a3) {
  SplitFragment f;
  splitTf32(__float_as_uint(a0), f.big[0], f.small[0]);
  splitTf32(__float_as_uint(a1), f.big[1], f.small[1]);
  splitTf32(__float_as_uint(a2), f.big[2], f.small[2]);
  splitTf32(__float_as_uint(a3), f.big[3], f.small[3]);
  return f;
}

// acc += A B on tf32 tensor cores, 3xTF32; b0 and b1 are the B fragment, split here.
__device__ __forceinline__ void mmaSplit(float (&acc)[4], const SplitFragment& a, float b0, float b1) {
  unsigned bBig[2], bSmall[2];
  splitTf32(__float_as_uint(b0), bBig[0], bSmall[0]);
  splitTf32(__float_as_uint(b1), bBig[1], bSmall[1]);
  mma3xTf32(acc, a.big, a.small, bBig, bSmall);
}

// One tile of K and V, positions [j0, j0 + kF32AttentionKeys), into shared memory; positions past
// skv are zeroed (their scores are masked, and P V must not meet stale NaN). V and K with d
// contiguous as rows of positions; K with positions contiguous (KT) as rows of d. Each takes
// 16-byte copies where its rows allow (kVector, vVector), else 4-byte ones: ViT's K^T, rows of 197
// floats, must not hold V's copies to 4 bytes.
template <int D, bool KT>
__device__ __forceinline__ void loadKvTile(float* ks, float* vs, const float* k, const float* v,
                                           const AttentionParams& p, int j0, bool kVector, bool vVector) {
  constexpr int kPitch = f32AttentionPitch(D), kKeys = kF32AttentionKeys, kThreads = kF32AttentionThreads;
  if (vVector) {
    for (int c = threadIdx.x; c < kKeys * D / 4; c += kThreads) {
      const int r = c / (D / 4), col = 4 * (c % (D / 4)), j = j0 + r;
      const int bytes = j < p.skv ? 16 : 0;
      cpAsync16(vs + r * kPitch + col, bytes ? v + j * p.vStride[2] + col : v, bytes);
    }
  } else {
    for (int e = threadIdx.x; e < kKeys * D; e += kThreads) {
      const int r = e / D, col = e % D, j = j0 + r;
      const int bytes = j < p.skv ? 4 : 0;
      cpAsync4(vs + r * kPitch + col, bytes ? v + j * p.vStride[2] + col : v, bytes);
    }
  }
  if (kVector) {
    for (int c = threadIdx.x; c < kKeys * D / 4; c += kThreads) {
      // KT: rows of d, 16-byte chunks of positions (skv is a multiple of 4 here); else rows of positions.
      const int r = KT ? c / (kKeys / 4) : c / (D / 4), col = KT ? 4 * (c % (kKeys / 4)) : 4 * (c % (D / 4));
      const int j = KT ? j0 + col : j0 + r;
      const int bytes = j < p.skv ? 16 : 0;
      float* dst = KT ? ks + r * kF32AttentionKeyPitch + col : ks + r * kPitch + col;
      const float* src = KT ? k + r * p.kStride[3] + j : k + j * p.kStride[2] + col;
      cpAsync16(dst, bytes ? src : k, bytes);
    }
  } else {
    for (int e = threadIdx.x; e < kKeys * D; e += kThreads) {
      const int r = KT ? e / kKeys : e / D, col = KT ? e % kKeys : e % D;
      const int j = KT ? j0 + col : j0 + r, d = KT ? r : col;
      const int bytes = j < p.skv ? 4 : 0;
      float* dst = KT ? ks + r * kF32AttentionKeyPitch + col : ks + r * kPitch + col;
      cpAsync4(dst, bytes ? k + j * p.kStride[2] + d * p.kStride[3] : k, bytes);
    }
  }
  cpAsyncCommit();
}

// K's element (position ni * 8 + g, d) of a tile, in the layout loadKvTile gave it.
template <int D, bool KT> __device__ __forceinline__ float kElement(const float* ks, int key, int d) {
  if constexpr (KT)
    return ks[d * kF32AttentionKeyPitch + key];
  else
    return ks[key * f32AttentionPitch(D) + d];
}

} // namespace detail

template <int D, bool KT, typename ScoreOp, typename OutStore>
__device__ __forceinline__ void attention_f32_body(const AttentionParams& p, const ScoreOp& score,
                                                   const OutStore& out) {
  using namespace detail;
  static_assert(D % 8 == 0 && D <= 128, "head dims of 8 to 128, multiples of 8");
  constexpr int kPitch = f32AttentionPitch(D), kKeys = kF32AttentionKeys;
  constexpr int kStage = f32AttentionKFloats(D) + kKeys * kPitch; // K, then V
  float* qs = reinterpret_cast<float*>(dynamicShared());
  float* stages = qs + kF32AttentionRows * kPitch;

  const int rowTiles = (p.sq + kF32AttentionRows - 1) / kF32AttentionRows;
  const int rowTile = blockIdx.x % rowTiles, h = blockIdx.x / rowTiles % p.heads,
            b = blockIdx.x / rowTiles / p.heads, kvHead = h / (p.heads / p.kvHeads);
  const int i0 = rowTile * kF32AttentionRows;
  const float* q = static_cast<const float*>(p.q) + b * p.qStride[0] + h * p.qStride[1];
  const float* k = static_cast<const float*>(p.k) + b * p.kStride[0] + kvHead * p.kStride[1];
  const float* v = static_cast<const float*>(p.v) + b * p.vStride[0] + kvHead * p.vStride[1];
  // 16-byte copies need 16-byte aligned rows; K's rows are along d, or along positions (KT), whose
  // 16-byte chunks then lie wholly inside or outside the keys.
  const bool kVector = reinterpret_cast<unsigned long long>(k) % 16 == 0 && p.kStride[KT ? 3 : 2] % 4 == 0 &&
                       p.kStride[KT ? 2 : 3] == 1 && (!KT || p.skv % 4 == 0);
  const bool vVector = reinterpret_cast<unsigned long long>(v) % 16 == 0 && p.vStride[2] % 4 == 0;

  const int tiles = (p.skv + kKeys - 1) / kKeys;
  if (tiles > 0)
    loadKvTile<D, KT>(stages, stages + f32AttentionKFloats(D), k, v, p, 0, kVector, vVector);
  for (int e = threadIdx.x; e < kF32AttentionRows * D; e += kF32AttentionThreads) {
    const int r = e / D, d = e % D;
    qs[r * kPitch + d] = i0 + r < p.sq ? q[(i0 + r) * p.qStride[2] + d * p.qStride[3]] : 0.0f;
  }

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int warpRow = warp * kF32AttentionRowsPerWarp; // within the block's rows
  // Accumulator element e of o[ni] is row warpRow + g + 8 (e / 2), column 8 ni + 2t + e % 2; the
  // same for the scores s[ni] with the tile's keys as columns. Rows g and g + 8 keep their
  // running max and (this lane's part of the) sum of exponentials.
  float o[D / 8][4] = {};
  float rowMax[2] = {-infinity(), -infinity()}, rowSum[2] = {0.0f, 0.0f};

  for (int tile = 0; tile < tiles; ++tile) {
    cpAsyncWait<0>();
    __syncthreads(); // this tile landed; every warp is done with the stage the next load refills
    if (tile + 1 < tiles) {
      float* next = stages + (tile + 1) % 2 * kStage;
      loadKvTile<D, KT>(next, next + f32AttentionKFloats(D), k, v, p, (tile + 1) * kKeys, kVector, vVector);
    }
    const float* ks = stages + tile % 2 * kStage;
    const float* vs = ks + f32AttentionKFloats(D);

    float s[kKeys / 8][4] = {};
#pragma unroll
    for (int kk = 0; kk < D / 8; ++kk) {
      const float* qRow = qs + (warpRow + g) * kPitch + kk * 8 + t;
      const SplitFragment a = splitFragment(qRow[0], qRow[8 * kPitch], qRow[4], qRow[8 * kPitch + 4]);
#pragma unroll
      for (int ni = 0; ni < kKeys / 8; ++ni) {
        const int key = ni * 8 + g, d = kk * 8 + t;
        mmaSplit(s[ni], a, kElement<D, KT>(ks, key, d), kElement<D, KT>(ks, key, d + 4));
      }
    }

    const int j0 = tile * kKeys;
    float tileMax[2] = {-infinity(), -infinity()};
#pragma unroll
    for (int ni = 0; ni < kKeys / 8; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int i = i0 + warpRow + g + 8 * (e / 2), j = j0 + ni * 8 + 2 * t + e % 2;
        s[ni][e] = i < p.sq && j < p.skv ? score(b, h, i, j, s[ni][e]) : -infinity();
        tileMax[e / 2] = fmaxf(tileMax[e / 2], s[ni][e]);
      }
    float scale[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      // The four lanes of a row must agree on its max: their P columns meet in one P V.
      tileMax[r] = fmaxf(tileMax[r], __shfl_xor_sync(0xffffffffu, tileMax[r], 1));
      tileMax[r] = fmaxf(tileMax[r], __shfl_xor_sync(0xffffffffu, tileMax[r], 2));
      const float newMax = fmaxf(rowMax[r], tileMax[r]);
      const float base = stableBase(newMax);
      scale[r] = __expf(rowMax[r] - base);
      rowMax[r] = newMax;
      rowSum[r] *= scale[r];
#pragma unroll
      for (int ni = 0; ni < kKeys / 8; ++ni)
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          float& x = s[ni][2 * r + c];
          x = __expf(x - base);
          rowSum[r] += x;
        }
    }
    // The tile's P V sums in its own accumulators and joins o on the CUDA cores, rounding to
    // nearest: the tensor cores' accumulation rounds toward zero (gemm_tiled.cuh).
    float pv[D / 8][4] = {};
#pragma unroll
    for (int kk = 0; kk < kKeys / 8; ++kk) {
      // Keys 8 kk + 2t and 8 kk + 2t + 1 as the fragment's columns t and t + 4 (the header says why).
      const SplitFragment a = splitFragment(s[kk][0], s[kk][2], s[kk][1], s[kk][3]);
      const float* vRow = vs + (kk * 8 + 2 * t) * kPitch + g;
#pragma unroll
      for (int ni = 0; ni < D / 8; ++ni) mmaSplit(pv[ni], a, vRow[ni * 8], vRow[kPitch + ni * 8]);
    }
#pragma unroll
    for (int ni = 0; ni < D / 8; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) o[ni][e] = fmaf(o[ni][e], scale[e / 2], pv[ni][e]);
  }

#pragma unroll
  for (int r = 0; r < 2; ++r) {
    rowSum[r] += __shfl_xor_sync(0xffffffffu, rowSum[r], 1);
    rowSum[r] += __shfl_xor_sync(0xffffffffu, rowSum[r], 2);
  }
#pragma unroll
  for (int ni = 0; ni < D / 8; ++ni)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int i = i0 + warpRow + g + 8 * (e / 2);
      if (i < p.sq)
        out(b, h, i, ni * 8 + 2 * t + e % 2,
            rowSum[e / 2] == 0.0f && p.emptyRowsZero ? 0.0f : o[ni][e] / rowSum[e / 2]);
    }
}

} // namespace tcx

#endif // TCX_ATTENTION_F32_CUH
