#ifndef TCX_SPLIT_K_CUH
#define TCX_SPLIT_K_CUH
// The split-K handshake of the GEMM kernels: the blocks that share an output tile along K each
// write their partial tile to the workspace (abi.h: the counters, then the partial tiles); the
// last to arrive, counted atomically, sums them in split order, so the result does not depend on
// arrival order.

#include "tcx/abi.h"

namespace tcx {

// Where the workspace's partial tiles start.
__device__ __forceinline__ float* splitKPartials(void* workspace) {
  return reinterpret_cast<float*>(static_cast<char*>(workspace) + kSplitKCounterBytes);
}

// Called by every thread of the block once its partial tile is written; true, in every thread, for
// the last of the tile's splitK blocks, which may then read all the partials. The last block resets
// the counter for the next launch (every other block of the tile has arrived by then).
__device__ __forceinline__ bool splitKArriveLast(unsigned* counter, int splitK) {
  __threadfence();
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) {
    last = atomicAdd(counter, 1u) == static_cast<unsigned>(splitK - 1);
    if (last)
      *counter = 0;
  }
  __syncthreads();
  if (last)
    __threadfence();
  return last;
}

// The whole handshake for a block whose threads each hold kPerThread accumulators, `acc` (a
// thread's accumulator array, flattened): writes them as split `split` of tile `tile` (thread t's
// i-th at partial float t + i * kThreads, coalesced across the block), then returns false in every
// block but the tile's last, which gets acc summed over all splits in split order and true.
// kInFlight: splits whose loads are issued together, where the registers allow (gemm_tiled's small
// tiles: 32 accumulators and 64 loads; on an H200 196 x 384 x 1536 in 16 splits took 17.8 against
// 19.0 us one split at a time). The sums keep split order either way.
template <int kThreads, int kPerThread, int kInFlight = 1>
__device__ __forceinline__ bool splitKCombine(float* acc, void* workspace, unsigned tile, int split, int splitK) {
  constexpr int kTileFloats = kThreads * kPerThread;
  float* first = splitKPartials(workspace) + static_cast<i64>(tile) * splitK * kTileFloats + threadIdx.x;
  float* mine = first + static_cast<i64>(split) * kTileFloats;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) mine[i * kThreads] = acc[i];
  if (!splitKArriveLast(static_cast<unsigned*>(workspace) + tile, splitK))
    return false;
  // Splits outermost: each step has all the thread's loads in flight at once (a split at a time
  // per element would wait out an L2 round trip per load).
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) acc[i] = 0.0f;
  int s = 0;
  for (; s + kInFlight <= splitK; s += kInFlight) {
    float v[kInFlight][kPerThread];
#pragma unroll
    for (int j = 0; j < kInFlight; ++j)
#pragma unroll
      for (int i = 0; i < kPerThread; ++i)
        v[j][i] = __ldcg(first + (static_cast<i64>(s + j) * kTileFloats + i * kThreads));
#pragma unroll
    for (int j = 0; j < kInFlight; ++j)
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) acc[i] += v[j][i];
  }
  for (; s < splitK; ++s)
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) acc[i] += __ldcg(first + (static_cast<i64>(s) * kTileFloats + i * kThreads));
  return true;
}

} // namespace tcx

#endif // TCX_SPLIT_K_CUH
