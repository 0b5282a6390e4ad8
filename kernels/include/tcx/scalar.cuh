#pragma once
// Scalar device functions of the element-wise ops, named after the ONNX op
// (the op registry's CUDA form of an element-wise op is a call of tcx::op::
// <Name>, see core/ops/CudaLowering.h), and the storage <-> compute
// conversions generated kernels use. Values arrive in the compute type:
// float for f32/f16/bf16, double, and the integer types themselves, as on
// the CPU (ComputeType in core/ir/DType.h), so both round the same way.
//
// Compiled by NVRTC and nvcc: no host standard headers.

#include "tcx/divide.h"
#include "tcx/types.cuh"

namespace tcx {

template <typename T> struct Compute { typedef T type; };
template <> struct Compute<__half> { typedef float type; };
template <> struct Compute<__nv_bfloat16> { typedef float type; };

__device__ __forceinline__ float toCompute(__half v) { return to_float(v); }
__device__ __forceinline__ float toCompute(__nv_bfloat16 v) { return to_float(v); }
template <typename T> __device__ __forceinline__ T toCompute(T v) { return v; }

template <typename T> struct FromCompute {
  template <typename C> __device__ static T convert(C v) { return static_cast<T>(v); }
};
template <> struct FromCompute<__half> {
  template <typename C> __device__ static __half convert(C v) { return from_float<__half>(static_cast<float>(v)); }
};
template <> struct FromCompute<__nv_bfloat16> {
  template <typename C> __device__ static __nv_bfloat16 convert(C v) {
    return from_float<__nv_bfloat16>(static_cast<float>(v));
  }
};
template <> struct FromCompute<bool> {
  template <typename C> __device__ static bool convert(C v) { return v != C(0); }
};

template <typename T> __device__ __forceinline__ typename Compute<T>::type load(const void* base, i64 offset) {
  return toCompute(static_cast<const T*>(base)[offset]);
}
template <typename T, typename C> __device__ __forceinline__ void store(void* base, i64 offset, C v) {
  static_cast<T*>(base)[offset] = FromCompute<T>::convert(v);
}
// The value an intermediate of storage type T holds: computed in the
// compute type, rounded to T, as the CPU reference stores it.
template <typename T, typename C> __device__ __forceinline__ typename Compute<T>::type roundTo(C v) {
  return toCompute(FromCompute<T>::convert(v));
}

// lo <= e < hi: a mapping-function piece's constraint.
__device__ __forceinline__ bool inRange(i64 e, i64 lo, i64 hi) { return e >= lo && e < hi; }

// The element of an axis of `size` that an index operand's value selects
// (Gather, ScatterND, ...): negative values count from the end. The CPU
// reference rejects values outside [-size, size); here they clamp to the
// nearest element, so that a bad index reads or writes a wrong element but
// never outside the tensor.
__device__ __forceinline__ i64 wrapIndex(i64 index, i64 size) {
  const i64 i = index < 0 ? index + size : index;
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

namespace op {

// The math library's float and double forms under one name, so that the
// functions below are templates over the compute type and f64 keeps its
// precision.
__device__ __forceinline__ float sqrtOf(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrtOf(double x) { return sqrt(x); }
__device__ __forceinline__ float expOf(float x) { return expf(x); }
__device__ __forceinline__ double expOf(double x) { return exp(x); }
__device__ __forceinline__ float expm1Of(float x) { return expm1f(x); }
__device__ __forceinline__ double expm1Of(double x) { return expm1(x); }
__device__ __forceinline__ float log1pOf(float x) { return log1pf(x); }
__device__ __forceinline__ double log1pOf(double x) { return log1p(x); }
__device__ __forceinline__ float tanhOf(float x) { return tanhf(x); }
__device__ __forceinline__ double tanhOf(double x) { return tanh(x); }
__device__ __forceinline__ float fmodOf(float a, float b) { return fmodf(a, b); }
__device__ __forceinline__ double fmodOf(double a, double b) { return fmod(a, b); }

template <typename T> inline constexpr bool isFloating = isSame<T, float> || isSame<T, double>;
// Whether an integer compute type is signed (unsigned char is the one that is not).
template <typename T> inline constexpr bool isSigned = T(-1) < T(0);

template <typename T> __device__ __forceinline__ T Add(T a, T b) { return a + b; }
template <typename T> __device__ __forceinline__ T Sub(T a, T b) { return a - b; }
template <typename T> __device__ __forceinline__ T Mul(T a, T b) { return a * b; }
template <typename T> __device__ __forceinline__ T Div(T a, T b) { return a / b; }
template <typename T> __device__ __forceinline__ T Max(T a, T b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
template <typename T> __device__ __forceinline__ T Min(T a, T b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }
template <typename T, typename E> __device__ __forceinline__ T Pow(T a, E e) {
  return static_cast<T>(pow(static_cast<double>(a), static_cast<double>(e)));
}
__device__ __forceinline__ float Pow(float a, float e) { return e == 2.0f ? a * a : powf(a, e); }

template <typename T> __device__ __forceinline__ T Neg(T x) { return -x; }
template <typename T> __device__ __forceinline__ T Abs(T x) { return x < T(0) ? -x : x; }
template <typename T> __device__ __forceinline__ T Sqrt(T x) { return sqrtOf(x); }
template <typename T> __device__ __forceinline__ T Reciprocal(T x) { return T(1) / x; }
template <typename T> __device__ __forceinline__ T Exp(T x) { return expOf(x); }
__device__ __forceinline__ float Log(float x) { return logf(x); }
__device__ __forceinline__ double Log(double x) { return log(x); }
__device__ __forceinline__ float Tanh(float x) { return tanhf(x); }
__device__ __forceinline__ double Tanh(double x) { return tanh(x); }
__device__ __forceinline__ float Erf(float x) { return erff(x); }
__device__ __forceinline__ double Erf(double x) { return erf(x); }
__device__ __forceinline__ float Sin(float x) { return sinf(x); }
__device__ __forceinline__ double Sin(double x) { return sin(x); }
__device__ __forceinline__ float Cos(float x) { return cosf(x); }
__device__ __forceinline__ double Cos(double x) { return cos(x); }
__device__ __forceinline__ float Tan(float x) { return tanf(x); }
__device__ __forceinline__ double Tan(double x) { return tan(x); }
__device__ __forceinline__ float Floor(float x) { return floorf(x); }
__device__ __forceinline__ double Floor(double x) { return floor(x); }
__device__ __forceinline__ float Ceil(float x) { return ceilf(x); }
__device__ __forceinline__ double Ceil(double x) { return ceil(x); }
__device__ __forceinline__ float Round(float x) { return rintf(x); }
__device__ __forceinline__ double Round(double x) { return rint(x); }
// 1, -1, or x itself for 0 and NaN.
template <typename T> __device__ __forceinline__ T Sign(T x) { return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x); }
// The remainder with the sign of the dividend (fmod = 1) or, ONNX's default,
// of the divisor. Integer a % -1 is 0 (it overflows for the minimum value);
// a divisor of 0 has no defined result (the CPU reference raises).
template <typename T> __device__ __forceinline__ T Fmod(T a, T b) {
  if constexpr (isFloating<T>)
    return fmodOf(a, b);
  else if constexpr (isSigned<T>)
    return b == T(-1) ? T(0) : T(a % b);
  else
    return T(a % b);
}
template <typename T> __device__ __forceinline__ T Mod(T a, T b) {
  const T r = Fmod(a, b);
  return r != T(0) && (r < T(0)) != (b < T(0)) ? T(r + b) : r;
}
template <typename T> __device__ __forceinline__ bool IsNaN(T x) { return x != x; }
template <typename T> __device__ __forceinline__ bool IsInf(T x, bool negative, bool positive) {
  return (negative && x == -T(infinity())) || (positive && x == T(infinity()));
}

template <typename T> __device__ __forceinline__ T Relu(T x) { return x < T(0) ? T(0) : x; }
template <typename T> __device__ __forceinline__ T LeakyRelu(T x, T alpha) { return x < T(0) ? alpha * x : x; }
template <typename T> __device__ __forceinline__ T Sigmoid(T x) { return T(1) / (T(1) + expOf(-x)); }
// float (and the 16-bit types, computed in float) on the fast exp and the one-instruction approximate
// reciprocal (1 ulp; rcp(inf) = 0, so large negative x still gives 0): far inside every dtype's
// tolerance, where expf and an IEEE division cost a conv epilogue (SiLU = x * Sigmoid(x)) as many
// instructions as its MMA loop (kernels/README.md).
__device__ __forceinline__ float Sigmoid(float x) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(1.0f + __expf(-x)));
  return r;
}
template <typename T> __device__ __forceinline__ T HardSigmoid(T x, T alpha, T beta) {
  T y = alpha * x + beta;
  return y < T(0) ? T(0) : (y > T(1) ? T(1) : y);
}
template <typename T> __device__ __forceinline__ T HardSwish(T x) { return x * HardSigmoid(x, T(1) / T(6), T(0.5)); }
template <typename T> __device__ __forceinline__ T Softplus(T x) {
  return x > T(0) ? x + log1pOf(expOf(-x)) : log1pOf(expOf(x));
}
template <typename T> __device__ __forceinline__ T PRelu(T x, T slope) { return x < T(0) ? Mul(x, slope) : x; }
template <typename T> __device__ __forceinline__ T ThresholdedRelu(T x, T alpha) { return x > alpha ? x : T(0); }
template <typename T> __device__ __forceinline__ T Elu(T x, T alpha) { return x < T(0) ? alpha * expm1Of(x) : x; }
template <typename T> __device__ __forceinline__ T Selu(T x, T alpha, T gamma) {
  return gamma * (x > T(0) ? x : alpha * expm1Of(x));
}
// max(0, x) + min(0, alpha (e^(x/alpha) - 1)), each written as std::max and
// std::min are, so that NaN gives what the CPU reference gives (0).
template <typename T> __device__ __forceinline__ T Celu(T x, T alpha) {
  const T negative = alpha * expm1Of(x / alpha);
  return (T(0) < x ? x : T(0)) + (negative < T(0) ? negative : T(0));
}
template <typename T> __device__ __forceinline__ T Mish(T x) { return x * tanhOf(Softplus(x)); }
template <typename T> __device__ __forceinline__ T Softsign(T x) { return x / (T(1) + Abs(x)); }
__device__ __forceinline__ float GeluErf(float x) { return 0.5f * x * erfcf(-x * 0.70710678118654752f); }
__device__ __forceinline__ float GeluTanh(float x) {
  const float k = 0.79788456080286536f; // sqrt(2 / pi)
  return x / (1.0f + expf(-2.0f * k * (x + 0.044715f * x * x * x)));
}

template <typename T> __device__ __forceinline__ bool Equal(T a, T b) { return a == b; }
template <typename T> __device__ __forceinline__ bool Less(T a, T b) { return a < b; }
template <typename T> __device__ __forceinline__ bool Greater(T a, T b) { return a > b; }
template <typename T> __device__ __forceinline__ bool LessOrEqual(T a, T b) { return a <= b; }
template <typename T> __device__ __forceinline__ bool GreaterOrEqual(T a, T b) { return a >= b; }
__device__ __forceinline__ bool And(bool a, bool b) { return a && b; }
__device__ __forceinline__ bool Or(bool a, bool b) { return a || b; }
__device__ __forceinline__ bool Xor(bool a, bool b) { return a != b; }
__device__ __forceinline__ bool Not(bool a) { return !a; }
template <typename T> __device__ __forceinline__ T Where(bool c, T a, T b) { return c ? a : b; }
// The range of a compute type, for Clip's absent bounds.
template <typename T> struct Limits;
template <> struct Limits<float> {
  __device__ static float lowest() { return -infinity(); }
  __device__ static float highest() { return infinity(); }
};
template <> struct Limits<double> {
  __device__ static double lowest() { return -__longlong_as_double(0x7ff0000000000000LL); }
  __device__ static double highest() { return __longlong_as_double(0x7ff0000000000000LL); }
};
template <> struct Limits<long long> {
  __device__ static long long lowest() { return -0x7fffffffffffffffLL - 1; }
  __device__ static long long highest() { return 0x7fffffffffffffffLL; }
};
template <> struct Limits<int> {
  __device__ static int lowest() { return -0x7fffffff - 1; }
  __device__ static int highest() { return 0x7fffffff; }
};
template <> struct Limits<signed char> {
  __device__ static signed char lowest() { return -128; }
  __device__ static signed char highest() { return 127; }
};
template <> struct Limits<unsigned char> {
  __device__ static unsigned char lowest() { return 0; }
  __device__ static unsigned char highest() { return 255; }
};
template <> struct Limits<bool> {
  __device__ static bool lowest() { return false; }
  __device__ static bool highest() { return true; }
};
template <typename T> __device__ __forceinline__ T Clip(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }
// Cast between compute types; the rounding to the target's storage type is
// the caller's roundTo, as for every op. As in the CPU reference (castValue,
// core/ops/elementwise/Map.h): to bool is `!= 0`, a float converts to an
// integer truncating toward zero and saturating, NaN to 0 (C++ leaves
// both undefined), and an integer to a narrower one wraps.
template <typename To, typename From> __device__ __forceinline__ To Cast(From v) {
  if constexpr (isFloating<From> && !isFloating<To> && !isSame<To, bool>) {
    if (v != v) return To(0);
    if (v <= static_cast<From>(Limits<To>::lowest())) return Limits<To>::lowest();
    if (v >= static_cast<From>(Limits<To>::highest())) return Limits<To>::highest();
  }
  return static_cast<To>(v);
}
template <typename To> __device__ __forceinline__ To Cast(bool v) { return v ? To(1) : To(0); }

} // namespace op

// The scatters' reductions, combining the element an update lands on with
// the update as the CPU reference does (core/ops/movement/Scatter.cpp): in
// the compute type, max and min written as std::max and std::min are.
namespace combine {
struct Add {
  template <typename C> __device__ static C apply(C into, C update) { return into + update; }
};
struct Mul {
  template <typename C> __device__ static C apply(C into, C update) { return into * update; }
};
struct Max {
  template <typename C> __device__ static C apply(C into, C update) { return into < update ? update : into; }
};
struct Min {
  template <typename C> __device__ static C apply(C into, C update) { return update < into ? update : into; }
};
} // namespace combine

// The unsigned word atomicCAS swaps for an element of `Bytes` bytes; 16-bit
// CAS needs sm_70.
template <int Bytes> struct CasWord;
template <> struct CasWord<2> { typedef unsigned short type; };
template <> struct CasWord<4> { typedef unsigned int type; };
template <> struct CasWord<8> { typedef unsigned long long type; };

// *address = Combine(*address, value), rounded to T, atomically: several
// updates of a scatter may land on one element. A compare-and-swap loop
// over the element's bits, for every dtype alike; a 1-byte element swaps
// the aligned 32-bit word that holds it (buffers are 256-byte aligned, so
// the word lies inside the allocation).
template <typename Combine, typename T, typename C> __device__ void atomicCombine(T* address, C value) {
  typedef typename Compute<T>::type Value;
  if constexpr (sizeof(T) == 1) {
    unsigned* word = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned long long>(address) & ~3ULL);
    const unsigned shift = 8u * static_cast<unsigned>(reinterpret_cast<unsigned long long>(address) & 3ULL);
    unsigned old = *word, assumed;
    do {
      assumed = old;
      const unsigned char bits = static_cast<unsigned char>(assumed >> shift);
      T current;
      memcpy(&current, &bits, 1);
      const T next = FromCompute<T>::convert(Combine::apply(toCompute(current), static_cast<Value>(value)));
      unsigned char nextBits;
      memcpy(&nextBits, &next, 1);
      old = atomicCAS(word, assumed, (assumed & ~(0xffu << shift)) | (static_cast<unsigned>(nextBits) << shift));
    } while (old != assumed);
  } else {
    typedef typename CasWord<sizeof(T)>::type W;
    W* word = reinterpret_cast<W*>(address);
    W old = *word, assumed;
    do {
      assumed = old;
      T current;
      memcpy(&current, &assumed, sizeof(T));
      const T next = FromCompute<T>::convert(Combine::apply(toCompute(current), static_cast<Value>(value)));
      W nextBits;
      memcpy(&nextBits, &next, sizeof(T));
      old = atomicCAS(word, assumed, nextBits);
    } while (old != assumed);
  }
}

} // namespace tcx
