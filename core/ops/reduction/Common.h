#pragma once
// Pieces shared by the reduction family: the element types each op accepts,
// the types sums accumulate in, and the [outer, n, inner] view of a tensor
// around one axis that the single-axis ops (ArgMax, Softmax, CumSum) walk.

#include "ir/Dispatch.h"
#include "ir/Shape.h"
#include "ops/OpDef.h"

#include <cstdint>
#include <type_traits>

namespace tcx::reduction {

// The element types an op accepts.
enum class DTypeSet {
  Float,         // results that are only meaningful as reals: sqrt, log, exp
  Numeric,       // floating-point and integer types
  NumericOrBool, // also bool, for comparisons (ReduceMax of bools is "any")
};

template <DTypeSet S, typename T>
constexpr bool kAccepts = kIsFloatStorage<T> || (S != DTypeSet::Float && std::is_integral_v<T> &&
                                                 (S == DTypeSet::NumericOrBool || !std::is_same_v<T, bool>));

// Runs f.template operator()<T>() for the storage type T of `dtype`; raises
// Unsupported for a dtype outside `S`.
template <DTypeSet S, typename F> void dispatchIn(DType dtype, F&& f) {
  dispatchDType(dtype, [&]<typename T>() {
    if constexpr (kAccepts<S, T>)
      f.template operator()<T>();
    else
      raise(ErrorKind::Unsupported, "dtype {} is not supported", dtypeName(dtype));
  });
}

// Raises Unsupported unless `dtype` is in `S`: shape inference's check.
template <DTypeSet S> void checkDType(DType dtype) {
  dispatchIn<S>(dtype, []<typename>() {});
}

// Sums and products accumulate in float for f16/bf16 and, for integers, in
// uint64_t: fixed-width wrap-around as in ONNX runtimes, without the undefined
// behaviour of signed overflow. Converting back to T keeps the low bits.
template <typename T>
using SumType = std::conditional_t<std::is_integral_v<T>, uint64_t, ComputeType<T>>;

// Maps `axis` in [-rank, rank) to [0, rank). Unlike normalizeAxis this
// rejects every axis of a scalar: these ops need an axis to work along.
int64_t checkedAxis(int64_t axis, int64_t rank);

// CumSum's axis operand (one integer) as an axis in [0, rank).
int64_t cumSumAxis(const Tensor& axis, int64_t rank);

// Inference of the ops that normalise a float input along `axis` (default
// -1) and keep its type: Softmax, LogSoftmax, Hardmax.
void inferAlongAxis(InferContext& ctx);

// A tensor viewed as [outer, n, inner] around `axis`: element (o, k, i) is at
// (o * n + k) * inner + i.
struct AxisSplit {
  AxisSplit(const Shape& shape, int64_t axis);

  int64_t outer = 1;
  int64_t n = 1;
  int64_t inner = 1;
};

} // namespace tcx::reduction
