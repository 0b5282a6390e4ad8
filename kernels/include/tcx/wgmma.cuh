#ifndef TCX_WGMMA_CUH
#define TCX_WGMMA_CUH
// Hopper's warpgroup MMA (wgmma.mma_async, sm_90a only): a warpgroup of 4 warps multiplies a
// 64-row A by an N-column B that the tensor cores read straight from shared memory, through a
// matrix descriptor, asynchronously; the issuing threads go on until wgmmaWait.
//
// Only the shape gemm_wgmma_f32 takes is here: m64n128k8 on tf32 with A in registers. Its A
// fragment is mma.sync m16n8k8's (mma.cuh), warp w of the warpgroup holding rows 16w..16w+15;
// its accumulator is m16n8's per warp, 16 column tiles of 8: d[4j + e] is row 16w + g + 8 (e / 2),
// column 8j + 2t + e % 2 (g = lane / 4, t = lane % 4).
//
// B is K-major (tf32 has no transposed form) in the 128-byte swizzle: rows of 128 bytes (32
// floats of K) whose 16-byte chunks are XOR-ed with the row's index mod 8, 8 rows to a 1024-byte
// atom, atoms 1024 bytes apart, the tile 1024-byte aligned. That is gemm_tiled's swizzle<64>, so
// the two stage K-major tiles alike.

#include "tcx/types.cuh"

namespace tcx {

// The descriptor of a 128-byte-swizzled K-major tile whose first row starts at `tile` (plus a
// multiple of 32 bytes to start at a later K step of the same rows). Bits: start address / 16
// (0-13), leading byte offset / 16 (16-29, unused by this layout, 1 by convention), stride byte
// offset / 16 (32-45: 1024, one atom of 8 rows), swizzle mode (62-63: 1, 128 bytes).
__device__ __forceinline__ unsigned long long wgmmaDescriptor(const void* tile) {
  const unsigned long long address = sharedAddress(tile);
  return ((address & 0x3FFFF) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

// Orders this thread's earlier register writes (the A fragments, the accumulator) before the
// wgmmas that read them.
__device__ __forceinline__ void wgmmaFence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

// Makes this thread's generic-proxy shared-memory writes (st.shared, cp.async) visible to the
// async proxy that wgmma reads shared memory through; before the barrier that publishes them.
__device__ __forceinline__ void fenceProxyAsync() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ __forceinline__ void wgmmaCommit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }

// Waits until at most `Pending` committed wgmma groups of this warpgroup are in flight.
template <int Pending> __device__ __forceinline__ void wgmmaWait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
}

// d = A B (+ d where `accumulate`), A 64 x 8 tf32 in registers, B 8 x 128 K-major at `bDesc`.
__device__ __forceinline__ void wgmma64x128x8Tf32(float (&d)[64], const unsigned (&a)[4], unsigned long long bDesc,
                                                  bool accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
               " %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
               " {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
                 "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(bDesc), "r"(static_cast<int>(accumulate))
               : "memory");
}

} // namespace tcx

#endif // TCX_WGMMA_CUH
