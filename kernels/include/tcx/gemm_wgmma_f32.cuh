#ifndef TCX_GEMM_WGMMA_F32_CUH
#define TCX_GEMM_WGMMA_F32_CUH
// gemm_wgmma_f32: C = A B in float on Hopper's warpgroup MMA, 3xTF32 as gemm_tiled (gemm_tiled.cuh
// says why three products keep fp32's accuracy). gemm_tiled's mma.sync splits each operand in
// every warp that reads it and waits on those conversions (about 40 TFLOP/s of a 107 ceiling on an
// H200); here B is split once, as it is staged, and the tensor cores read both halves from shared
// memory, so a stage costs each thread its A fragments' splits and one add per accumulator.
//
// A: k contiguous, 16-byte aligned rows (Access::ColContiguous); cp.async into the 128-byte
// swizzle, read back by ldmatrix and split in registers (wgmma takes A from registers).
// B: n contiguous (Access::ColContiguous), as exports store a Linear's weight, or k contiguous
// (Access::RowContiguous, a weight read transposed), 16-byte aligned rows. The float4s of a stage
// are loaded into registers one stage ahead, split, and stored K-major (tf32 wgmma reads B no
// other way): transposed from n-contiguous rows, as they are from k-contiguous ones.
//
// Each stage's 12 products (4 K steps of 8, three products each) go into a fresh accumulator
// that is then added to the block's on the CUDA cores, rounding to nearest: the tensor cores add
// rounding toward zero (gemm_tiled does the same a K step at a time).
//
// Tf32: one tf32 product instead of three, accumulated by the tensor cores, for a contraction that
// may run in tf32 as cuDNN runs float convolutions by default (a pointwise convolution lowered as
// a GEMM, GemmProblem::tf32): operands rounded to nearest tf32, B staged once, no split.
//
// BPrologue: maps each element b of B inside K x N to prologue(prologue.channel(k), b) as it is
// staged, before the split; channel(k) holds what the map takes from k alone. A pointwise
// convolution's input computed from the tensor B points at (DenseNet's BN-ReLU of a concatenation,
// codegen/PrologueCode.h); NoPrologue stages B as it is.
// Applied where the stage is stored, not where it is loaded, so that the loads stay a stage ahead.
//
// Grid: (ceil(N / kWgmmaN), ceil(M / kWgmmaM), batch x splitK), kWgmmaThreads threads, at least
// wgmmaMinBlocks(Tf32) blocks a multiprocessor, dynamic shared memory wgmmaSharedBytes(Tf32)
// (planGemm in launch.h); split-K as gemm_tiled.

#include "tcx/gemm_tiled.cuh"
#include "tcx/wgmma.cuh"

namespace tcx {
namespace detail {

static_assert(kWgmmaKElems == tiledKElems(4), "gemm_wgmma_f32 stages A with gemm_tiled's loadKMajor");

// The four float4s of B a thread stages, each 4 elements along B's contiguous dimension: with n
// contiguous, K row `lane` of the stage at columns 4 (warp + 8 i)...; with k contiguous, column
// threadIdx.x / 8 + 32 i at K 4 (threadIdx.x % 8)... of the stage.
struct WgmmaBRegs {
  float4 v[4];
};

// The 4 elements from (row, col) along a row of `base` (rows `rowStride` apart, 16-byte aligned),
// zero outside rows x cols.
__device__ __forceinline__ float4 loadFloat4(const float* base, i64 rowStride, int row, int col, int rows, int cols) {
  const float* at = base + static_cast<i64>(row) * rowStride + col;
  if (row < rows && col + 3 < cols)
    return __ldg(reinterpret_cast<const float4*>(at));
  const bool inside = row < rows;
  return make_float4(inside && col < cols ? at[0] : 0.0f, inside && col + 1 < cols ? at[1] : 0.0f,
                     inside && col + 2 < cols ? at[2] : 0.0f, inside && col + 3 < cols ? at[3] : 0.0f);
}

template <Access BAccess>
__device__ __forceinline__ void loadWgmmaB(WgmmaBRegs& r, const GemmParams& p, const float* b, int n0, int k0) {
  static_assert(BAccess == Access::ColContiguous || BAccess == Access::RowContiguous, "B n- or k-contiguous");
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if constexpr (BAccess == Access::ColContiguous)
      r.v[i] = loadFloat4(b, p.b.strideRow, k0 + threadIdx.x % 32, n0 + 4 * (threadIdx.x / 32 + 8 * i), p.k, p.n);
    else
      r.v[i] = loadFloat4(b, p.b.strideCol, n0 + threadIdx.x / 8 + 32 * i, k0 + 4 * (threadIdx.x % 8), p.n, p.k);
  }
}

// B staged as it is in memory.
struct NoPrologue {};

// What a BPrologue takes from each channel (k) of the stage a thread holds, as loadWgmmaB placed
// it: one k with n contiguous (16 elements of it), four with k contiguous (4 elements each). Read a
// stage ahead with the stage's B, so that the prologue's loads (BN's statistics) are in flight while
// the tensor cores run instead of stalling the store that applies it.
template <Access BAccess, typename BPrologue>
struct WgmmaBChannels {
  static constexpr int kCount = BAccess == Access::ColContiguous ? 1 : 4;
  using Channel = decltype(static_cast<const BPrologue*>(nullptr)->channel(0));
  Channel c[kCount];

  __device__ __forceinline__ static int channelK(int k0, int j) {
    return BAccess == Access::ColContiguous ? k0 + int(threadIdx.x) % 32 : k0 + 4 * (int(threadIdx.x) % 8) + j;
  }
  __device__ __forceinline__ void load(const BPrologue& prologue, const GemmParams& p, int k0) {
#pragma unroll
    for (int j = 0; j < kCount; ++j)
      if (channelK(k0, j) < p.k)
        c[j] = prologue.channel(channelK(k0, j));
  }
  // Element (k, n) of the stage becomes prologue(channel of k, value); elements outside K x N stay
  // zero, adding nothing to the products.
  __device__ __forceinline__ void apply(WgmmaBRegs& r, const BPrologue& prologue, const GemmParams& p, int n0,
                                        int k0) const {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float* v = &r.v[i].x;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int channel = BAccess == Access::ColContiguous ? 0 : j;
        const int n = BAccess == Access::ColContiguous ? n0 + 4 * (int(threadIdx.x) / 32 + 8 * i) + j
                                                       : n0 + int(threadIdx.x) / 8 + 32 * i;
        if (channelK(k0, j) < p.k && n < p.n)
          v[j] = prologue(c[channel], v[j]);
      }
    }
  }
};

template <Access BAccess>
struct WgmmaBChannels<BAccess, NoPrologue> {
  __device__ __forceinline__ void load(const NoPrologue&, const GemmParams&, int) {}
  __device__ __forceinline__ void apply(WgmmaBRegs&, const NoPrologue&, const GemmParams&, int, int) const {}
};

// Splits the staged B and stores both halves K-major: element (k, n) of the stage at byte
// n * 128 + 16 ((k / 4) ^ (n % 8)) + 4 (k % 4) of its tile. With n contiguous a float4 goes to four
// rows (the 32 lanes of a store, 32 values of k, hit 32 distinct banks); with k contiguous it is
// one 16-byte chunk of a row (a quarter warp's 8 chunks fill the row's 128 bytes). Tf32 stores the
// big half only.
template <Access BAccess, bool Tf32>
__device__ __forceinline__ void storeWgmmaB(unsigned char* big, unsigned char* small, const WgmmaBRegs& r) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned x[4] = {__float_as_uint(r.v[i].x), __float_as_uint(r.v[i].y), __float_as_uint(r.v[i].z),
                     __float_as_uint(r.v[i].w)};
    unsigned hi[4], lo[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) splitTf32(x[j], hi[j], lo[j]);
    if constexpr (BAccess == Access::ColContiguous) {
      const int k = threadIdx.x % 32;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int n = 4 * (threadIdx.x / 32 + 8 * i) + j;
        const int offset = n * 128 + (((k >> 2) ^ (n & 7)) << 4) + (k & 3) * 4;
        *reinterpret_cast<unsigned*>(big + offset) = hi[j];
        if constexpr (!Tf32)
          *reinterpret_cast<unsigned*>(small + offset) = lo[j];
      }
    } else {
      const int n = threadIdx.x / 8 + 32 * i, offset = n * 128 + (((threadIdx.x % 8) ^ (n & 7)) << 4);
      *reinterpret_cast<uint4*>(big + offset) = make_uint4(hi[0], hi[1], hi[2], hi[3]);
      if constexpr (!Tf32)
        *reinterpret_cast<uint4*>(small + offset) = make_uint4(lo[0], lo[1], lo[2], lo[3]);
    }
  }
}

} // namespace detail

template <Access BAccess, bool Tf32, typename Epilogue, typename BPrologue = detail::NoPrologue>
__device__ __forceinline__ void gemm_wgmma_f32_body(const GemmParams& p, const Epilogue& epilogue,
                                                    const BPrologue& prologue = BPrologue()) {
  using namespace detail;
  unsigned char* raw = dynamicShared();
  unsigned char* stages = raw + ((1024 - sharedAddress(raw) % 1024) % 1024);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int group = warp / 4, warpInGroup = warp % 4; // warpgroup `group` computes rows 64 group..
  const BlockTile tile = blockTile<kWgmmaM, kWgmmaN, kWgmmaKElems>(p);
  const int batch = tile.batch, split = tile.split, m0 = tile.m0, n0 = tile.n0, kBegin = tile.kBegin;
  const int kTiles = tile.kTiles;
  const float* a = static_cast<const float*>(p.a.data) + batch * p.a.strideBatch;
  const float* b = static_cast<const float*>(p.b.data) + batch * p.b.strideBatch;
  auto tileA = [&](int stage) { return stages + stage * wgmmaStageBytes(Tf32); };
  auto tileBBig = [&](int stage) { return tileA(stage) + kWgmmaTileBytes; };
  auto tileBSmall = [&](int stage) { return tileA(stage) + 2 * kWgmmaTileBytes; };
  auto loadA = [&](int stage, int kt) {
    loadKMajor<float, kWgmmaM, kWgmmaThreads>(reinterpret_cast<unsigned short*>(tileA(stage)), a, p.a.strideRow, m0,
                                              p.m, kBegin + kt * kWgmmaKElems, p.k);
  };

  WgmmaBRegs staged;
  WgmmaBChannels<BAccess, BPrologue> channels;
  auto loadB = [&](int kt) {
    loadWgmmaB<BAccess>(staged, p, b, n0, kBegin + kt * kWgmmaKElems);
    channels.load(prologue, p, kBegin + kt * kWgmmaKElems);
  };
  auto storeB = [&](int stage, int kt) {
    channels.apply(staged, prologue, p, n0, kBegin + kt * kWgmmaKElems);
    storeWgmmaB<BAccess, Tf32>(tileBBig(stage), tileBSmall(stage), staged);
  };
#pragma unroll
  for (int s = 0; s < kWgmmaStages - 1; ++s) {
    if (s < kTiles) {
      loadA(s, s);
      loadB(s);
      storeB(s, s);
    }
    cpAsyncCommit();
  }
  if (kWgmmaStages - 1 < kTiles)
    loadB(kWgmmaStages - 1);

  float acc[64] = {};
  for (int kt = 0; kt < kTiles; ++kt) {
    cpAsyncWait<kWgmmaStages - 2>();
    fenceProxyAsync();
    // Publishes stage kt (A by cp.async, B by the stores of step kt - 1) and frees the stage step
    // kt - 1 read, whose products every warpgroup waited for before arriving here.
    __syncthreads();
    const int refill = kt + kWgmmaStages - 1;
    if (refill < kTiles)
      loadA(refill % kWgmmaStages, refill);
    cpAsyncCommit();

    const unsigned short* as = reinterpret_cast<const unsigned short*>(tileA(kt % kWgmmaStages));
    unsigned aBig[4][4], aSmall[4][4];
#pragma unroll
    for (int ks = 0; ks < 4; ++ks) {
      unsigned af[4];
      ldmatrixX4(af, as + swizzle<kTiledKUnits>(group * 64 + warpInGroup * 16 + lane % 16, ks * 16 + lane / 16 * 8));
#pragma unroll
      for (int i = 0; i < 4; ++i) splitTf32(af[i], aBig[ks][i], aSmall[ks][i]);
    }
    const unsigned char* bBig = tileBBig(kt % kWgmmaStages);
    const unsigned char* bSmall = tileBSmall(kt % kWgmmaStages);
    float step[64];
    wgmmaFence();
#pragma unroll
    for (int ks = 0; ks < 4; ++ks) {
      if constexpr (Tf32) {
        wgmma64x128x8Tf32(acc, aBig[ks], wgmmaDescriptor(bBig + 32 * ks), true);
      } else {
        wgmma64x128x8Tf32(step, aSmall[ks], wgmmaDescriptor(bBig + 32 * ks), ks > 0);
        wgmma64x128x8Tf32(step, aBig[ks], wgmmaDescriptor(bSmall + 32 * ks), true);
        wgmma64x128x8Tf32(step, aBig[ks], wgmmaDescriptor(bBig + 32 * ks), true);
      }
    }
    wgmmaCommit();
    // While the tensor cores run: the stage loaded last step goes to shared memory, the next one
    // into registers.
    if (refill < kTiles)
      storeB(refill % kWgmmaStages, refill);
    if (refill + 1 < kTiles)
      loadB(refill + 1);
    wgmmaWait<0>();
    if constexpr (!Tf32) {
#pragma unroll
      for (int i = 0; i < 64; ++i) acc[i] += step[i];
    }
  }
  cpAsyncWait<0>();

  if (p.splitK > 1) {
    const unsigned tile = (batch * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (!splitKCombine<kWgmmaThreads, 64>(acc, p.workspace, tile, split, p.splitK))
      return;
  }
  const int g = lane / 4, t = lane % 4;
  const int mBase = m0 + group * 64 + warpInGroup * 16 + g;
  // Element e of the j-th 8-column slice is acc[4 j + e].
  runEpilogue<8, 64>(epilogue, [&](int i) {
    const int j = i / 4, e = i % 4;
    const int m = mBase + 8 * (e / 2), n = n0 + 8 * j + 2 * t + e % 2;
    return EpilogueAt{batch, m, n, acc[i], m < p.m && n < p.n};
  });
}

// B with a BPrologue applied, written dense ([batch][k][n], n fastest) for a library call that
// cannot apply it (a cuDNN convolution offered beside the GEMM: VendorAlternative::prelude): the
// same prologue(prologue.channel(k), b) the GEMM computes as it stages B. p.b is B's view as the
// GEMM reads it, p.k its channels; one thread an element, grid-stride.
// Its code names no size of K, so the preludes of GEMMs that differ only in K share it (DenseNet's
// dense layers: codegen/GemmLowering.cpp).
template <typename BPrologue>
__device__ __forceinline__ void stage_b_prologue_body(const GemmParams& p, float* out, const BPrologue& prologue) {
  const i64 count = i64{p.batch} * p.k * p.n;
  const float* b = static_cast<const float*>(p.b.data);
  for (i64 i = i64{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += i64{gridDim.x} * blockDim.x) {
    const int n = static_cast<int>(i % p.n);
    const i64 rest = i / p.n;
    const int k = static_cast<int>(rest % p.k), image = static_cast<int>(rest / p.k);
    out[i] = prologue(prologue.channel(k), b[image * p.b.strideBatch + k * p.b.strideRow + n * p.b.strideCol]);
  }
}

} // namespace tcx

#endif // TCX_GEMM_WGMMA_F32_CUH
