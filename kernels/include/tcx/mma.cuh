#ifndef TCX_MMA_CUH
#define TCX_MMA_CUH
// Warp-level tensor-core and asynchronous-copy primitives (sm_80 and later): mma.sync m16n8k16
// (f16/bf16) and m16n8k8 (tf32) with fp32 accumulation, ldmatrix and cp.async. Plain sm_80
// instructions, so the same code runs on Ampere and Hopper without the sm_90a target.
//
// Fragment layout of m16n8k16 (g = lane / 4, t = lane % 4), each register two 16-bit elements,
// the lower column (A, C) or row (B) in the low half:
//   A (16 x 16, row major): a[0] (g, 2t..2t+1)  a[1] (g+8, 2t..)  a[2] (g, 2t+8..)  a[3] (g+8, 2t+8..)
//   B (16 x 8):             b[0] (2t..2t+1, g)  b[1] (2t+8..2t+9, g)
//   C (16 x 8, fp32):       c[0..1] (g, 2t..2t+1)  c[2..3] (g+8, 2t..2t+1)

#include "tcx/types.cuh"

namespace tcx {

template <typename T>
__device__ __forceinline__ void mma16816(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
  static_assert(isTensorCoreType<T>, "tensor-core operands are __half or __nv_bfloat16");
  if constexpr (isSame<T, __half>)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// m16n8k8 on tf32 operands (fp32 bits, the low 13 mantissa bits ignored), fp32 accumulation.
// Its fragments hold the same bytes as m16n8k16's: a 16 x 8 A tile of 32-bit elements is 16 rows
// of 32 bytes, so ldmatrix with the 16-bit addressing loads it (a[0] (g, t), a[1] (g+8, t),
// a[2] (g, t+4), a[3] (g+8, t+4); b[0] (t, g), b[1] (t+4, g)).
__device__ __forceinline__ void mma1688Tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// fp32 rounded to nearest tf32, as cuDNN rounds its TF32 convolution operands; the tensor cores
// would otherwise truncate. Hopper rounds ties to even in one instruction (cvt.rn.tf32 is sm_90
// and later); cvt.rna (ties away, the only tf32 rounding before sm_90) is three instructions on
// sm_90, which made the conversions of the staged convolution's loop twice its fragment loads
// and MMAs together.
__device__ __forceinline__ float toTf32(float x) {
  unsigned r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
#else
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
#endif
  return __uint_as_float(r);
}

// x (fp32 bits) = big + small for 3xTF32: big is x rounded to tf32, small the remainder, which
// fp32 holds exactly (|small| <= 2^-11 |x|). small goes to the tensor cores as it is, which read
// its top 19 bits: truncating it costs at most 2^-21 of x a product, about fp32's own error over a
// dot product of a few hundred terms. Rounding small as well took a second conversion on the
// split's dependency chain, and the 3xTF32 kernels wait on the ALU pipe (ncu on an H200: ALU the
// busiest pipe, fixed-latency dependencies the main stall, docs/benchmarks.md).
__device__ __forceinline__ void splitTf32(unsigned x, unsigned& big, unsigned& small) {
  const float value = __uint_as_float(x), high = toTf32(value);
  big = __float_as_uint(high);
  small = __float_as_uint(value - high);
}

// acc += A B in 3xTF32 from operands split by splitTf32: the two small products first, which are
// about 2^-11 of the big one and keep more of their bits summed before it.
__device__ __forceinline__ void mma3xTf32(float (&acc)[4], const unsigned (&aBig)[4], const unsigned (&aSmall)[4],
                                          const unsigned (&bBig)[2], const unsigned (&bSmall)[2]) {
  mma1688Tf32(acc, aSmall, bBig[0], bBig[1]);
  mma1688Tf32(acc, aBig, bSmall[0], bSmall[1]);
  mma1688Tf32(acc, aBig, bBig[0], bBig[1]);
}

// One 32-byte step of K on tensor cores: m16n8k16 for 16-bit T, m16n8k8 tf32 for float.
template <typename T>
__device__ __forceinline__ void mmaStep(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  if constexpr (isSame<T, float>)
    mma1688Tf32(c, a, b0, b1);
  else
    mma16816<T>(c, a, b0, b1);
}

// Four 8x8 matrices of 16-bit elements; lane l gives the row address of matrix l / 8.
__device__ __forceinline__ void ldmatrixX4(unsigned (&r)[4], const void* rowAddress) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(sharedAddress(rowAddress))
               : "memory");
}

// The same, each matrix transposed: for operands stored with the other dimension contiguous.
__device__ __forceinline__ void ldmatrixX4Trans(unsigned (&r)[4], const void* rowAddress) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(sharedAddress(rowAddress))
               : "memory");
}

// 16 bytes global -> shared, bypassing registers and L1. Only the first `srcBytes` are read; the
// rest of the 16 is zero-filled, which pads ragged tile edges without a branch.
__device__ __forceinline__ void cpAsync16(void* dst, const void* src, int srcBytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(sharedAddress(dst)), "l"(src),
               "r"(srcBytes)
               : "memory");
}

// 4 bytes global -> shared through L1, zero-filled where `srcBytes` is 0: for gathers whose
// elements are not 16-byte runs.
__device__ __forceinline__ void cpAsync4(void* dst, const void* src, int srcBytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(sharedAddress(dst)), "l"(src), "r"(srcBytes)
               : "memory");
}

__device__ __forceinline__ void cpAsyncCommit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most `Pending` committed groups are still in flight.
template <int Pending> __device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

// Selects bytes of {a, b} (a in the low word): 0x5410 takes the low halves, 0x7632 the high.
__device__ __forceinline__ unsigned permute(unsigned a, unsigned b, unsigned selector) {
  return __byte_perm(a, b, selector);
}
inline constexpr unsigned kLowHalves = 0x5410;
inline constexpr unsigned kHighHalves = 0x7632;

} // namespace tcx

#endif // TCX_MMA_CUH
