#pragma once
// Scalar helpers for the functions of this family. They receive ComputeType
// values (f16 and bf16 arrive as float) and are instantiated for integer
// types too, so tests that make no sense for a type compile away.

#include <cmath>
#include <functional>
#include <type_traits>

namespace tcx::elementwise {

template <typename T> bool isNan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(v);
  else
    return false;
}

template <typename T> bool isNegative(T v) {
  if constexpr (std::is_signed_v<T>)
    return v < T(0);
  else
    return false;
}

// Signed overflow is undefined in C++, but ONNX runtimes wrap like the
// hardware does, so integer arithmetic goes through the unsigned type.
template <typename T, typename Op> T wrapping(T a, T b, Op op) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(op(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return op(a, b);
  }
}

template <typename T> T negate(T v) { return wrapping(T(0), v, std::minus<>()); }

} // namespace tcx::elementwise
