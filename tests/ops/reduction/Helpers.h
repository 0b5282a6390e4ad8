#pragma once
// Tensor builders and error probes shared by the reduction op tests.

#include "ops/GraphBuilder.h"
#include "support/Error.h"
#include "support/RunOp.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx::test {

// A tensor of storage type T from values written as floats (exact for the
// small integers and halves the tests use).
template <typename T> Tensor tensorOf(Shape shape, const std::vector<float>& values) {
  std::vector<T> converted;
  for (float v : values) converted.push_back(static_cast<T>(v));
  return Tensor::fromVector<T>(std::move(shape), converted);
}

inline Tensor f32(Shape shape, const std::vector<float>& values) { return tensorOf<float>(std::move(shape), values); }

inline Tensor i64s(const std::vector<int64_t>& values) {
  return Tensor::fromVector<int64_t>({static_cast<int64_t>(values.size())}, values);
}

// The kind of the Error that f() raises, or nothing if it succeeds.
template <typename F> std::optional<ErrorKind> errorKindOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  return std::nullopt;
}

} // namespace tcx::test
