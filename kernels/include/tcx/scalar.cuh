#pragma once
// Scalar device functions of the element-wise ops, named after the ONNX op
// (the op registry's CUDA form of an element-wise op is a call of tcx::op::
// <Name>, see core/ops/CudaLowering.h), and the storage <-> compute
// conversions generated kernels use. Values arrive in the compute type:
// float for f32/f16/bf16, double, and the integer types themselves, as on
// the CPU (ComputeType in core/ir/DType.h), so both round the same way.
//
// Compiled by NVRTC and nvcc: no host standard headers.

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

namespace op {

__device__ __forceinline__ float sqrtOf(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrtOf(double x) { return sqrt(x); }
__device__ __forceinline__ float expOf(float x) { return expf(x); }
__device__ __forceinline__ double expOf(double x) { return exp(x); }

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
__device__ __forceinline__ float Cos(float x) { return cosf(x); }
__device__ __forceinline__ float Floor(float x) { return floorf(x); }
__device__ __forceinline__ float Ceil(float x) { return ceilf(x); }
__device__ __forceinline__ float Round(float x) { return rintf(x); }

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
__device__ __forceinline__ float Softplus(float x) { return x > 0.0f ? x + log1pf(expf(-x)) : log1pf(expf(x)); }
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
template <typename T> __device__ __forceinline__ T Clip(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }
// Cast between compute types; the rounding to the target's storage type is
// the caller's roundTo, as for every op.
template <typename To, typename From> __device__ __forceinline__ To Cast(From v) { return static_cast<To>(v); }
template <typename To> __device__ __forceinline__ To Cast(bool v) { return v ? To(1) : To(0); }

} // namespace op

} // namespace tcx
