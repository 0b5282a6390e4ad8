#ifndef TCX_ABI_H
#define TCX_ABI_H
// The kernel ABI shared by the device library (the .cuh headers, compiled by NVRTC or nvcc) and
// the host planner (launch.h, compiled by g++): the parameter structs every kernel takes by value
// and the block sizes it was written for. Plain C++ with no includes, so that NVRTC, nvcc and g++
// all accept it; the structs hold only pointers, long long and int, so their layout is the same
// on both sides and the host can pass `&params` in the void*[] of cudaLaunchKernel.

// Functions both sides evaluate (NVRTC and nvcc define __CUDACC__).
#ifdef __CUDACC__
#define TCX_HOST_DEVICE __host__ __device__
#else
#define TCX_HOST_DEVICE
#endif

namespace tcx {

using i64 = long long;

// How a 2-D operand view (row, col) is laid out in memory. Picks the load path of a GEMM; the
// planner (launch.h) derives it from the strides and the base pointer's alignment.
enum class Access : int {
  // Any strides: element-wise loads. Correct for every view, slow.
  Strided = 0,
  // strideCol == 1; base 16-byte aligned; strideRow and strideBatch multiples of 16 bytes.
  ColContiguous = 1,
  // strideRow == 1; base 16-byte aligned; strideCol and strideBatch multiples of 16 bytes.
  RowContiguous = 2,
};

// One operand of a batched GEMM: element (batch, row, col) lives at
// data + batch * strideBatch + row * strideRow + col * strideCol (strides in elements).
struct Operand {
  const void* data;
  i64 strideBatch;
  i64 strideRow;
  i64 strideCol;
};

// C[batch][m][n] = sum_k A[batch][m][k] * B[batch][k][n]; C goes through the epilogue functor.
struct GemmParams {
  Operand a; // (batch, m, k)
  Operand b; // (batch, k, n)
  int batch;
  int m;
  int n;
  int k;
  // gemm_small_m only. Its blocks split the (tile, K) work evenly, in tile-major order with K
  // cut into slices (smallMSliceK); the cuts may fall inside a tile, whose blocks then add up.
  // splitK: the most blocks sharing one output tile (workspace slots per tile); kPerSplit: the K
  // rows of one block's range (a whole number of slices); kChunk: not read by the kernels.
  int splitK;
  int kPerSplit;
  int kChunk;
  // gemm_small_m with splitK > 1: arrival counters and partial tiles. Zero it once when it is
  // allocated; every launch leaves the counters at zero again.
  void* workspace;
};

// Attention over (b, head, position, d). K and V have d contiguous (stride 1).
struct AttentionParams {
  const void* q;
  i64 qStride[4]; // (b, head, i, d), any strides
  const void* k;
  i64 kStride[3]; // (b, kvHead, j)
  const void* v;
  i64 vStride[3]; // (b, kvHead, j)
  int batch;
  int heads;
  int kvHeads;
  int sq;        // query rows per head
  int skv;       // key/value positions
  int chunkLen;  // positions per phase-1 work item (any length; the last chunk may be shorter)
  int numChunks; // ceil(skv / chunkLen)
  int rowGroups; // units per KV head: groups of up to 16 * RT of its heads/kvHeads * sq query rows
  float* workspace;
};

// Block sizes and shared memory of each kernel. Codegen's wrappers take the thread counts (and
// minimum blocks) as __launch_bounds__; launch.h computes the rest of each launch from them.

// gemm_small_m: 8 warps, each streaming slices of B (32 rows of 64 16-bit elements: 32 k x 64
// columns when B is n-contiguous or strided, 32 columns x 64 k when k-contiguous) with the
// matching rows of A through its own ring of shared-memory slots. One block per multiprocessor:
// the rings take nearly all of its shared memory.
inline constexpr int kSmallMThreads = 256;
inline constexpr int kSmallMWarps = kSmallMThreads / 32;
TCX_HOST_DEVICE constexpr int smallMMinBlocks(int) { return 1; }
TCX_HOST_DEVICE constexpr int smallMSliceK(Access b) { return b == Access::RowContiguous ? 64 : 32; }
TCX_HOST_DEVICE constexpr int smallMSliceN(Access b) { return b == Access::RowContiguous ? 32 : 64; }
// One ring slot: 32 rows of B and 8 * mTiles rows of A, each row padded by 16 bytes so that the
// 8 rows an ldmatrix reads fall in distinct banks.
TCX_HOST_DEVICE constexpr int smallMSlotBytes(int mTiles, Access b) {
  return 32 * (64 + 8) * 2 + 8 * mTiles * (smallMSliceK(b) + 8) * 2;
}
// The warps' accumulators are added through one warp's worth of scratch.
TCX_HOST_DEVICE constexpr int smallMScratchBytes(int mTiles, Access b) {
  return smallMSliceN(b) / 16 * mTiles * 4 * 32 * 4;
}
// Ring depth: as many slots as fit next to the scratch (at least 2 up to 64 rows of A).
TCX_HOST_DEVICE constexpr int smallMStages(int mTiles, Access b) {
  return (226 * 1024 - smallMScratchBytes(mTiles, b)) / (kSmallMWarps * (smallMSlotBytes(mTiles, b) + 8));
}
TCX_HOST_DEVICE constexpr int smallMWarpBytes(int mTiles, Access b) {
  return (smallMStages(mTiles, b) * (smallMSlotBytes(mTiles, b) + 8) + 15) / 16 * 16;
}
TCX_HOST_DEVICE constexpr int smallMSharedBytes(int mTiles, Access b) {
  return kSmallMWarps * smallMWarpBytes(mTiles, b) + smallMScratchBytes(mTiles, b);
}

// gemm_tiled: 128 x 128 output tiles, 64 deep in K, a 3-stage cp.async pipeline; at most 128
// registers a thread, so that two blocks share a multiprocessor.
inline constexpr int kTiledThreads = 256;
inline constexpr int kTiledMinBlocks = 2;
inline constexpr int kTiledM = 128;
inline constexpr int kTiledN = 128;
inline constexpr int kTiledK = 64;
inline constexpr int kTiledStages = 3;
TCX_HOST_DEVICE constexpr int tiledSharedBytes(int elemBytes) {
  return elemBytes == 4 ? 0 : kTiledStages * (kTiledM + kTiledN) * kTiledK * elemBytes;
}

// Attention phase 1: kAttentionWarps warps, each streaming 16 positions at a time through a ring
// of kAttentionStages shared-memory slots; dynamic shared memory only.
inline constexpr int kAttentionWarps = 4;
inline constexpr int kAttentionStages = 4;
inline constexpr int kAttentionThreads = 32 * kAttentionWarps;
inline constexpr int kAttentionTile = 16;
// One warp: its ring (K and V rows of headDim + 8 elements), its Q fragments, its barriers.
TCX_HOST_DEVICE constexpr int attentionWarpBytes(int headDim, int rowTiles, int stages) {
  return (stages * 2 * kAttentionTile * (headDim + 8) * 2 + rowTiles * headDim / 16 * 32 * 16 + stages * 8 + 15) /
         16 * 16;
}
TCX_HOST_DEVICE constexpr int attentionSharedBytes(int headDim, int rowTiles) {
  return kAttentionWarps * attentionWarpBytes(headDim, rowTiles, kAttentionStages);
}
inline constexpr int kCombineThreads = 128;

} // namespace tcx

#endif // TCX_ABI_H
