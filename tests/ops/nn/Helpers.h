#pragma once
// Helpers shared by the nn op tests.

#include "ir/Dispatch.h"
#include "ops/GraphBuilder.h"
#include "ir/Tensor.h"
#include "support/Error.h"

#include <utility>

namespace tcx::test {

// Deterministic values in [-1.25, 1.25], multiples of 1/4: sums of a few
// hundred products stay exact in every float type, so results can be
// compared across dtypes exactly.
inline Tensor pattern(Shape shape, int seed) {
  Tensor t(DType::F32, std::move(shape));
  std::span<float> d = t.data<float>();
  for (size_t i = 0; i < d.size(); ++i)
    d[i] = static_cast<float>(static_cast<int>((i * 7 + static_cast<size_t>(seed) * 13) % 11) - 5) * 0.25f;
  return t;
}

// `t` with every element converted to `dtype`.
inline Tensor castTo(const Tensor& t, DType dtype) {
  Tensor out(dtype, t.shape());
  dispatchDType(dtype, [&]<typename T>() {
    std::span<T> d = out.data<T>();
    for (int64_t i = 0; i < t.numElements(); ++i) d[i] = static_cast<T>(static_cast<float>(t.elementAsDouble(i)));
  });
  return out;
}

// The kind of the Error that f raises, or Internal when it raises none.
template <typename F> ErrorKind errorKindOf(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

} // namespace tcx::test
