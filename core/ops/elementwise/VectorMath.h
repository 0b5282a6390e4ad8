#pragma once
// exp, tanh, erf and erfc that the compiler can vectorise for float (and so
// for f16 and bf16, which compute in float). The C library's scalar expf,
// tanhf and erff would keep the element loops scalar and dominate the time
// on large tensors. The float versions are branch-free, keep NaN and
// infinities, and stay within a few ulp of the exact result, save erfc's far
// tail (1e-5 relative beyond 2.5) (tests/ops/elementwise/VectorMathTest.cpp);
// double goes to the C library. exp is the one exp of the CPU kernels:
// Softmax and LogSoftmax (ops/reduction) call it too.

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace tcx::elementwise::vmath {

namespace detail {

// Cephes' expf: e^x = 2^n e^r with n = round(x / ln 2), a degree-7
// polynomial for e^r. 2^n is applied in two halves so that results down in
// the subnormal range and up to FLT_MAX come out right. Forced inline: the
// vectoriser cannot see into a call.
[[gnu::always_inline]] inline float expFloat(float x) {
  // Past these bounds e^x rounds to 0 or overflows; NaN is put back at the end.
  const float clamped = x >= -104.0f ? (x <= 89.0f ? x : 89.0f) : -104.0f;
  constexpr float kRoundingMagic = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
  const float n = (clamped * 1.44269504088896341f + kRoundingMagic) - kRoundingMagic;
  const float r = (clamped - n * 0.693359375f) - n * -2.12194440e-4f; // ln 2 in two parts
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  const int32_t e = static_cast<int32_t>(n);
  const int32_t half = e >> 1;
  const float scale1 = std::bit_cast<float>((half + 127) << 23);
  const float scale2 = std::bit_cast<float>((e - half + 127) << 23);
  const float result = p * scale1 * scale2;
  return x == x ? result : x;
}

// tanh by its Taylor series near 0 (to x^17: exact to float precision for
// |x| < 0.55), elsewhere 1 - 2 / (e^2|x| + 1), which cancels near 0.
inline float tanhFloat(float x) {
  const float z = x * x;
  float s = 5.9002744e-4f;   // 6404582 / 10854718875
  s = s * z - 1.4558344e-3f; // 929569 / 638512875
  s = s * z + 3.5921280e-3f; // 21844 / 6081075
  s = s * z - 8.8632355e-3f; // 1382 / 155925
  s = s * z + 2.1869488e-2f; // 62 / 2835
  s = s * z - 5.3968254e-2f; // 17 / 315
  s = s * z + 1.3333334e-1f; // 2 / 15
  s = s * z - 3.3333334e-1f; // 1 / 3
  const float small = x + x * z * s;
  const float a = std::fabs(x);
  const float large = std::copysign(1.0f - 2.0f / (expFloat(2.0f * a) + 1.0f), x);
  return a < 0.55f ? small : large;
}

// erf by its Maclaurin series, for |x| < 0.9 (to x^19: exact to float
// precision there).
inline float erfSeries(float x) {
  const float z = x * x;
  float s = -1.4503852e-7f;  // 1 / (9! 19)
  s = s * z + 1.4589169e-6f;  // 1 / (8! 17)
  s = s * z - 1.3227513e-5f;  // 1 / (7! 15)
  s = s * z + 1.0683761e-4f;  // 1 / (6! 13)
  s = s * z - 7.5757576e-4f;  // 1 / (5! 11)
  s = s * z + 4.6296296e-3f;  // 1 / (4! 9)
  s = s * z - 2.3809524e-2f;  // 1 / (3! 7)
  s = s * z + 1.0000000e-1f;  // 1 / (2! 5)
  s = s * z - 3.3333334e-1f;  // 1 / (1! 3)
  s = s * z + 1.0f;
  return 1.1283791670955126f * x * s; // 2 / sqrt(pi)
}

// erfc for a >= 0 by the Chebyshev fit of Numerical Recipes (erfcc), with a
// relative error below 1.2e-7 everywhere.
inline float erfcTail(float a) {
  const float t = 1.0f / (1.0f + 0.5f * a);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  return t * expFloat(p - a * a);
}

inline constexpr float kSeriesBound = 0.9f;

inline float erfFloat(float x) {
  const float a = std::fabs(x);
  return a < kSeriesBound ? erfSeries(x) : std::copysign(1.0f - erfcTail(a), x);
}

inline float erfcFloat(float x) {
  const float tail = erfcTail(std::fabs(x));
  const float outer = x < 0.0f ? 2.0f - tail : tail;
  return std::fabs(x) < kSeriesBound ? 1.0f - erfSeries(x) : outer;
}

} // namespace detail

template <typename T> [[gnu::always_inline]] inline T exp(T x) {
  if constexpr (std::is_same_v<T, float>)
    return detail::expFloat(x);
  else
    return std::exp(x);
}

template <typename T> T tanh(T x) {
  if constexpr (std::is_same_v<T, float>)
    return detail::tanhFloat(x);
  else
    return std::tanh(x);
}

template <typename T> T erf(T x) {
  if constexpr (std::is_same_v<T, float>)
    return detail::erfFloat(x);
  else
    return std::erf(x);
}

template <typename T> T erfc(T x) {
  if constexpr (std::is_same_v<T, float>)
    return detail::erfcFloat(x);
  else
    return std::erfc(x);
}

} // namespace tcx::elementwise::vmath
