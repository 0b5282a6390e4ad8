#pragma once
// Helpers shared by the data-movement op tests.

#include "ir/DType.h"
#include "ops/GraphBuilder.h"
#include "ir/Tensor.h"
#include "support/Error.h"
#include "support/RunOp.h"

#include <limits>
#include <optional>
#include <vector>

namespace tcx::test {

inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// A 1-D i64 operand: shapes, axes, pads, repeats, indices.
inline Tensor ints(const std::vector<int64_t>& values) {
  return Tensor::fromVector<int64_t>({static_cast<int64_t>(values.size())}, values);
}

// 0, 1, 2, ... in row-major order.
template <typename T> Tensor iota(Shape shape) {
  std::vector<T> values(static_cast<size_t>(numElements(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<T>(static_cast<ComputeType<T>>(i));
  return Tensor::fromVector<T>(std::move(shape), values);
}

inline Tensor halves(Shape shape, const std::vector<float>& values) {
  std::vector<Half> h;
  for (float v : values) h.push_back(Half(v));
  return Tensor::fromVector<Half>(std::move(shape), h);
}

// The kind of the Error that f throws, or nullopt if it throws none.
template <typename F> std::optional<ErrorKind> thrownKind(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  return std::nullopt;
}

} // namespace tcx::test

// Data movement copies values exactly: same type, equal elements.
#define REQUIRE_SAME(actual, expected) REQUIRE_CLOSE(actual, expected, 0.0, 0.0)
