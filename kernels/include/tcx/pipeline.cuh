#ifndef TCX_PIPELINE_CUH
#define TCX_PIPELINE_CUH
// Copy rings for the memory-bound kernels: the warps of a block keep several tiles of a stream
// (a KV cache, say) in flight into shared memory, each tile completing on its own mbarrier.
//
// Hopper (sm_90) copies rows with the bulk-copy engine (cp.async.bulk): one instruction moves a
// whole row of 64 to 512 bytes without touching registers or L1, so the bytes in flight are
// bounded by shared memory rather than by registers and load slots. Views that are not 16-byte
// aligned, and older GPUs, fill the tile with ordinary loads instead; the consumer side is the
// same either way.
//
// Protocol of one ring slot, by each warp that fills part of it: the lanes write what they fill
// with ordinary stores (zeroed rows out of range, gathered rows), fillBegin announces the bytes
// the warp's copies will deliver (a release arrival on the slot's mbarrier, which counts one
// arrival per filling warp), the lanes issue their row copies, and waitSlot (acquire) returns
// once every warp arrived and every byte landed. A slot is refilled only after every warp that
// reads it is done with it: each arrives on a second mbarrier (arriveExpecting with no bytes)
// once it has consumed what it read, and the fillers wait for that.
//
// Measured cost (ncu, H200): cp.async.bulk takes warp-uniform operands, so when each lane issues
// its own row the compiler runs a serial elect loop over the lanes, which drew about 40 % of the
// attention kernel's stall samples. Spreading the same rows over the lanes as 16-byte cp.async
// copies instead was slower still (kernels/README.md).

#include "tcx/types.cuh"

namespace tcx {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
inline constexpr bool kBulkCopy = false;
#else
inline constexpr bool kBulkCopy = true;
#endif

// `arrivals` per phase: lane 0 of each warp that fills (or frees) the slot.
__device__ __forceinline__ void initSlot(unsigned long long* bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sharedAddress(bar)), "r"(arrivals) : "memory");
}

// Makes the initialised barriers visible to the copy engine and to the other lanes.
__device__ __forceinline__ void fenceSlotInit() {
  if constexpr (kBulkCopy)
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncwarp();
}

// Lane 0 only: arrive on the slot, expecting `bytes` more from the copy engine.
__device__ __forceinline__ void arriveExpecting(unsigned long long* bar, unsigned bytes) {
  if constexpr (kBulkCopy)
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(sharedAddress(bar)),
                 "r"(bytes)
                 : "memory");
  else
    asm volatile("{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [%0]; }" ::"r"(sharedAddress(bar))
                 : "memory");
}

// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to shared memory,
// counted on `bar`. Only where kBulkCopy.
__device__ __forceinline__ void copyRow(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   sharedAddress(dst)),
               "l"(src), "r"(bytes), "r"(sharedAddress(bar))
               : "memory");
}

// Blocks until the slot's phase with this parity completed.
__device__ __forceinline__ void waitSlot(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  do {
    if constexpr (kBulkCopy)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2; "
                   "selp.u32 %0, 1, 0, p; }"
                   : "=r"(done)
                   : "r"(sharedAddress(bar)), "r"(parity)
                   : "memory");
    else
      asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done)
                   : "r"(sharedAddress(bar)), "r"(parity)
                   : "memory");
  } while (!done);
}

// A warp has consumed a value it read from a slot once an instruction that uses it (an mma, say)
// has issued: its reads have then completed, before any copy that overwrites them is issued. (A
// fence.proxy.async before freeing a slot cost up to 2 % in the kernels.)

// Starts a fill of one slot, after the lanes' ordinary stores into it: lane 0 announces `bytes`,
// what the copies issued after this call will deliver (0 for a fill by ordinary stores alone).
__device__ __forceinline__ void fillBegin(unsigned long long* bar, unsigned bytes) {
  __syncwarp();
  if (threadIdx.x % 32 == 0)
    arriveExpecting(bar, bytes);
  __syncwarp();
}

// Zeroes `bytes` (a multiple of 16) of shared memory at `dst`.
__device__ __forceinline__ void zeroRow(void* dst, int bytes) {
  for (int i = 0; i < bytes / 16; ++i)
    reinterpret_cast<uint4*>(dst)[i] = make_uint4(0, 0, 0, 0);
}

} // namespace tcx

#endif // TCX_PIPELINE_CUH
