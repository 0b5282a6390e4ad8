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

} // namespace tcx

#endif // TCX_SPLIT_K_CUH
