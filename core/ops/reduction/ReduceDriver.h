#pragma once
// The one loop nest behind every Reduce* op (and Softmax's column
// maxima and sums): walks the input once, in memory order, along a
// ReducePlan and folds it with a reducer (Reducers.h).

#include "ir/Tensor.h"
#include "ops/StridedLoop.h"
#include "ops/reduction/ReducePlan.h"

#include <algorithm>
#include <array>
#include <memory>

namespace tcx::reduction {

// Folds a contiguous row into one accumulator. Several independent
// accumulators break the dependency chain of a single one, so the loop runs
// at load bandwidth and vectorises; they are merged at the end.
template <typename R, typename T> typename R::Acc foldRow(const T* x, int64_t n) {
  constexpr int64_t kLanes = 8;
  typename R::Acc lanes[kLanes];
  for (auto& lane : lanes) lane = R::init();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t k = 0; k < kLanes; ++k) lanes[k] = R::step(lanes[k], x[i + k]);
  typename R::Acc acc = lanes[0];
  for (int64_t k = 1; k < kLanes; ++k) acc = R::merge(acc, lanes[k]);
  for (; i < n; ++i) acc = R::step(acc, x[i]);
  return acc;
}

// Folds x, walked along `plan`, into the partial accumulators
// acc[0 .. plan.outputCount) (R::init() each, to start a reduction).
template <typename R, typename T> void foldInto(const T* x, const ReducePlan& plan, typename R::Acc* acc) {
  const int64_t rowLength = plan.rowLength;
  stridedLoop<1>(plan.outer, {plan.outerOutputStrides.data()}, [&](const std::array<int64_t, 1>& offset) {
    typename R::Acc* a = acc + offset[0];
    if (plan.rowFolded) {
      *a = R::merge(*a, foldRow<R>(x, rowLength));
    } else {
      for (int64_t i = 0; i < rowLength; ++i) a[i] = R::step(a[i], x[i]);
    }
    x += rowLength;
  });
}

template <typename R, typename T> void reduce(const Tensor& input, const ReducePlan& plan, Tensor& output) {
  // Not a std::vector: its bool specialisation (ReduceMax of bools) has no data().
  auto acc = std::make_unique<typename R::Acc[]>(plan.outputCount);
  std::fill_n(acc.get(), plan.outputCount, R::init());
  foldInto<R>(input.data<T>().data(), plan, acc.get());
  T* y = output.data<T>().data();
  for (int64_t i = 0; i < plan.outputCount; ++i) y[i] = R::finish(acc[i], plan.foldedCount);
}

} // namespace tcx::reduction
