#ifndef TCX_REDUCE_CUH
#define TCX_REDUCE_CUH
// Warp and block reductions of floats. Every thread gets the result, so a kernel can go on with
// it (normalise a row, subtract a max) without another broadcast.

#include "tcx/types.cuh"

namespace tcx {

// The thread's index in its block and the block's thread count, for any block shape.
__device__ __forceinline__ unsigned blockThreadIndex() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned blockThreadCount() {
  return blockDim.x * blockDim.y * blockDim.z;
}

struct SumOp {
  __device__ __forceinline__ static float identity() { return 0.0f; }
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};

struct MaxOp {
  __device__ __forceinline__ static float identity() { return -infinity(); }
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// A butterfly over the full warp: all 32 lanes must call it.
template <typename Op> __device__ __forceinline__ float warpReduce(float v, Op op) {
#pragma unroll
  for (int mask = 16; mask > 0; mask /= 2)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, mask));
  return v;
}

// Every thread of the block must call it; the thread count must be a multiple of 32, up to 1024,
// in any block shape. Consecutive calls may share the scratch array: the barrier before the
// write waits for the previous call's readers.
template <typename Op> __device__ __forceinline__ float blockReduce(float v, Op op) {
  __shared__ float partial[32];
  const unsigned tid = blockThreadIndex();
  const unsigned warps = blockThreadCount() / 32;
  v = warpReduce(v, op);
  __syncthreads();
  if (tid % 32 == 0)
    partial[tid / 32] = v;
  __syncthreads();
  // Each warp reduces the partials itself rather than waiting on a third barrier for warp 0's.
  return warpReduce(tid % 32 < warps ? partial[tid % 32] : Op::identity(), op);
}

__device__ __forceinline__ float warpSum(float v) { return warpReduce(v, SumOp{}); }
__device__ __forceinline__ float warpMax(float v) { return warpReduce(v, MaxOp{}); }
__device__ __forceinline__ float blockSum(float v) { return blockReduce(v, SumOp{}); }
__device__ __forceinline__ float blockMax(float v) { return blockReduce(v, MaxOp{}); }

} // namespace tcx

#endif // TCX_REDUCE_CUH
