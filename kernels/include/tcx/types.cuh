#ifndef TCX_TYPES_CUH
#define TCX_TYPES_CUH
// Scalar conversions, index arithmetic and aligned vectors shared by every tcx kernel. NVRTC has
// no host standard headers, so the small pieces of <type_traits> and <cmath> tcx needs are here.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tcx/abi.h"

namespace tcx {

template <typename A, typename B> inline constexpr bool isSame = false;
template <typename A> inline constexpr bool isSame<A, A> = true;

template <typename T>
inline constexpr bool isTensorCoreType = isSame<T, __half> || isSame<T, __nv_bfloat16>;

__device__ __forceinline__ float infinity() { return __int_as_float(0x7f800000); }

// The base an online softmax subtracts before exp: its running max, or 0 while every score so far
// is -inf (exp(-inf - 0) = 0, where -inf - -inf would be NaN).
__device__ __forceinline__ float stableBase(float m) { return m == -infinity() ? 0.0f : m; }

// Every arithmetic type converts through its own value; the 16-bit floats need their intrinsics.
template <typename T> __device__ __forceinline__ float to_float(T x) { return static_cast<float>(x); }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float to_float(bool x) { return x ? 1.0f : 0.0f; }

// Integers truncate toward zero like ONNX Cast; the 16-bit floats round to nearest even.
template <typename T> __device__ __forceinline__ T from_float(float x) { return static_cast<T>(x); }
template <> __device__ __forceinline__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ bool from_float<bool>(float x) { return x != 0.0f; }

// Floor division and modulo for b > 0 (C++ '/' and '%' truncate toward zero instead); mapping
// functions use them for negative offsets, as in Python and the index expressions of core/vt.
__host__ __device__ constexpr i64 floordiv(i64 a, i64 b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
__host__ __device__ constexpr i64 floormod(i64 a, i64 b) {
  i64 r = a % b;
  return r < 0 ? r + b : r;
}

// N elements loaded or stored as one access; sizeof(T) * N == 16 gives a 16-byte access.
template <typename T, int N> struct alignas(sizeof(T) * N) Vec {
  T v[N];

  __device__ __forceinline__ static Vec load(const T* p) { return *reinterpret_cast<const Vec*>(p); }
  __device__ __forceinline__ void store(T* p) const { *reinterpret_cast<Vec*>(p) = *this; }
};
template <typename T> using Vec16 = Vec<T, 16 / sizeof(T)>;

// Raw bits of a 16-bit float, for packing tensor-core fragments.
__device__ __forceinline__ unsigned bitsOf(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bitsOf(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

template <typename T> __device__ __forceinline__ unsigned packBits(T lo, T hi) {
  return bitsOf(lo) | (bitsOf(hi) << 16);
}

// Two floats rounded to nearest even into one 32-bit word, `lo` in the low half.
template <typename T> __device__ __forceinline__ unsigned packFloats(float lo, float hi) {
  return packBits(from_float<T>(lo), from_float<T>(hi));
}

// Word `i` of a 16-byte vector; `i` must fold to a constant, so the vector stays in registers.
__device__ __forceinline__ unsigned word(const uint4& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// A 16-byte load of data that no thread writes during the kernel and that is read once (weights,
// KV caches): it skips L1 so that the stream does not evict data that is reused.
__device__ __forceinline__ uint4 loadStreaming(const void* p) {
  uint4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}

// The 16 bytes of elements base[x * step] for x < count (eight 16-bit elements or four floats),
// zero beyond, packed like a 16-byte load.
template <typename T> __device__ __forceinline__ uint4 gatherVector(const T* base, i64 step, int count) {
  unsigned w[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if constexpr (isSame<T, float>) {
      w[i] = i < count ? __float_as_uint(base[i * step]) : 0u;
    } else {
      const unsigned lo = 2 * i < count ? bitsOf(base[2 * i * step]) : 0u;
      const unsigned hi = 2 * i + 1 < count ? bitsOf(base[(2 * i + 1) * step]) : 0u;
      w[i] = lo | (hi << 16);
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// The 32-bit shared-window address that PTX's shared-memory instructions take.
__device__ __forceinline__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// The block's dynamic shared memory. One declaration for every header, since each extern
// __shared__ array of a kernel aliases the same bytes and they must agree on type and alignment.
__device__ __forceinline__ unsigned char* dynamicShared() {
  extern __shared__ __align__(16) unsigned char tcxDynamicShared[];
  return tcxDynamicShared;
}

} // namespace tcx

#endif // TCX_TYPES_CUH
