#ifndef TCX_L2_FLUSH_CUH
#define TCX_L2_FLUSH_CUH
// l2_flush: empties the L2 cache between timed repetitions by reading a buffer twice its size, so
// that the run timed next finds none of its inputs in L2 and no dirty lines either. A memset of the
// buffer evicts as well, but leaves L2 full of its own dirty lines, which the timed run then writes
// back to DRAM while it reads: up to the L2's size (60 MiB on an H200; computed, not counted), a
// fifth of the Llama decode attention's 319 MB. Measured on an H200: a 256 MiB read 74.0 us after a
// memset, 65.3 after this flush (docs/benchmarks.md "A clean L2 before each timed run"). That
// traffic belongs to the flush, not to the workload; a real decode step follows layers that
// mostly read weights.
//
// Plain loads (no evict-first hint): lines marked evict-first would displace each other and leave
// the earlier lines resident. Grid: a few blocks a multiprocessor, kL2FlushThreads (abi.h) threads each.

#include "tcx/types.cuh"

namespace tcx {

// Reads `vectors` 16-byte vectors at `p`; `sink` is written only if the XOR of every word read
// equals `key`, which the host picks so that it never does (the loads must not be dead code).
__device__ __forceinline__ void l2_flush_body(const uint4* p, i64 vectors, unsigned key, unsigned* sink) {
  constexpr int kInFlight = 4;
  const i64 stride = i64{gridDim.x} * blockDim.x;
  unsigned acc = 0;
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < vectors; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      v[u] = i + u * stride < vectors ? p[i + u * stride] : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == key)
    *sink = acc;
}

} // namespace tcx

#endif // TCX_L2_FLUSH_CUH
