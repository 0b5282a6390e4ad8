#pragma once
// Shorthands for the element-wise and metadata op tests.

#include "ir/Dispatch.h"
#include "ops/GraphBuilder.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>
#include <limits>
#include <source_location>
#include <vector>

namespace tcx::test {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// A tensor of any dtype from values written as doubles (each converted as a
// static_cast, so f16/bf16 round to nearest even).
inline Tensor tensor(DType dtype, Shape shape, const std::vector<double>& values) {
  Tensor t(dtype, std::move(shape));
  REQUIRE(static_cast<int64_t>(values.size()) == t.numElements());
  dispatchDType(dtype, [&]<typename T>() {
    std::span<T> data = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = static_cast<T>(static_cast<ComputeType<T>>(values[i]));
  });
  return t;
}

inline Tensor f32(Shape shape, const std::vector<double>& values) {
  return tensor(DType::F32, std::move(shape), values);
}
inline Tensor i64(Shape shape, const std::vector<double>& values) {
  return tensor(DType::I64, std::move(shape), values);
}

// REQUIRE_CLOSE, reporting the caller's line.
inline void requireClose(const Tensor& actual, const Tensor& expected, double rtol = 1e-5, double atol = 1e-6,
                         std::source_location where = std::source_location::current()) {
  std::string why = mismatch(actual, expected, rtol, atol);
  INFO("line " << where.line() << ": " << why);
  REQUIRE(why.empty());
}

// The kind of the tcx::Error that f raises (the test fails if none).
template <typename F> ErrorKind errorKind(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  FAIL("no error was raised");
  return ErrorKind::Internal;
}

} // namespace tcx::test
