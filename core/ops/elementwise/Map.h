#pragma once
// The loop under every element-wise kernel: out = f(in_0, ..., in_n-1) with
// numpy broadcasting. Operands are read as their ComputeType (f16 and bf16
// as float) and results are stored through castValue, so one generic lambda
// per op serves every dtype. The lambda is inlined into the loops; there is
// no per-element indirect call. Large outputs are filled by several threads.

#include "ir/Tensor.h"
#include "ops/StridedLoop.h"
#include "ops/nn/Parallel.h"

#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tcx::elementwise {

// Converts a computed value to the storage type To: to bool is `!= 0`,
// float to integer truncates toward zero, f16/bf16 round to nearest even,
// integer to narrower integer wraps. A float outside the integer range is
// undefined in ONNX (and in C++); it saturates here, and NaN becomes 0, so
// that no input can reach undefined behaviour.
template <typename To, typename From> To castValue(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    using Limits = std::numeric_limits<To>;
    if (std::isnan(v)) return To(0);
    if (v <= static_cast<From>(Limits::min())) return Limits::min();
    if (v >= static_cast<From>(Limits::max())) return Limits::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(static_cast<ComputeType<To>>(v));
  }
}

namespace detail {

// The iteration space of a broadcast: outer dimensions walked by
// stridedLoop (strides per input, then the output) and an inner, tight row
// in which every input steps by 1 or, where it is broadcast, by 0. Size-1
// dimensions are dropped and adjacent dimensions that are contiguous for
// every operand are merged, so rows are as long as the shapes allow.
struct BroadcastPlan {
  Shape outer;
  std::vector<std::vector<int64_t>> outerStrides;
  int64_t rowLength = 1;
  std::vector<bool> rowSteps; // per input: advances along the row
};
BroadcastPlan planBroadcast(const Shape& out, const std::vector<Shape>& inputs);

template <size_t> inline constexpr bool kStep = true;

// What one element costs in parallelFor's unit (about a multiply-add): loads,
// conversions, the op and a store. Large tensors are split over threads.
inline constexpr double kElementCost = 4;

// Results [begin, end) of one row. Steps fixes at compile time which inputs
// advance along it, so each variant is a plain loop the compiler vectorises.
template <typename Out, bool... Steps, typename F, typename... In>
inline void mapRow(Out* out, int64_t begin, int64_t end, F& f, const In*... in) {
  for (int64_t i = begin; i < end; ++i)
    out[i] = castValue<Out>(f(static_cast<ComputeType<In>>(in[Steps ? i : 0])...));
}

// One row of n results, split over threads.
template <typename Out, bool... Steps, typename F, typename... In>
void mapFlat(Out* out, int64_t n, F& f, const In*... in) {
  nn::parallelFor(n, kElementCost,
                  [&](int64_t begin, int64_t end) { mapRow<Out, Steps...>(out, begin, end, f, in...); });
}

// Calls g.template operator()<s_0, ..., s_N-1>() for the run-time flags s.
template <size_t N, bool... Steps, typename G> void dispatchSteps(const std::vector<bool>& steps, G& g) {
  if constexpr (sizeof...(Steps) == N) {
    g.template operator()<Steps...>();
  } else {
    if (steps[sizeof...(Steps)])
      dispatchSteps<N, Steps..., true>(steps, g);
    else
      dispatchSteps<N, Steps..., false>(steps, g);
  }
}

template <typename Out, typename... In, typename F, size_t... I>
void mapElementsImpl(Tensor& out, const std::array<const Tensor*, sizeof...(In)>& ins, F& f,
                     std::index_sequence<I...>) {
  constexpr size_t N = sizeof...(In);
  Out* result = out.data<Out>().data();
  const std::tuple<const In*...> data{ins[I]->template data<In>().data()...};
  if (((ins[I]->shape() == out.shape()) && ...)) {
    mapFlat<Out, kStep<I>...>(result, out.numElements(), f, std::get<I>(data)...);
    return;
  }
  if (out.numElements() == 0) return;
  const BroadcastPlan plan = planBroadcast(out.shape(), {ins[I]->shape()...});
  auto rows = [&]<bool... Steps>() {
    if (plan.outer.empty()) {
      mapFlat<Out, Steps...>(result, plan.rowLength, f, std::get<I>(data)...);
      return;
    }
    // Threads take slices of the outermost dimension.
    const double sliceCost = kElementCost * static_cast<double>(out.numElements() / plan.outer[0]);
    nn::parallelFor(plan.outer[0], sliceCost, [&](int64_t begin, int64_t end) {
      Shape slice = plan.outer;
      slice[0] = end - begin;
      std::array<const int64_t*, N + 1> strides;
      std::array<int64_t, N + 1> start;
      for (size_t k = 0; k <= N; ++k) {
        strides[k] = plan.outerStrides[k].data();
        start[k] = begin * strides[k][0];
      }
      stridedLoop<N + 1>(slice, strides, [&](const std::array<int64_t, N + 1>& at) {
        mapRow<Out, Steps...>(result + start[N] + at[N], 0, plan.rowLength, f,
                              (std::get<I>(data) + start[I] + at[I])...);
      });
    });
  };
  dispatchSteps<N>(plan.rowSteps, rows);
}

} // namespace detail

// out[idx] = castValue<Out>(f(in_0[idx'], ...)) for every index of out's
// shape, each input broadcast to it. In... are the inputs' storage types.
template <typename Out, typename... In, typename F>
void mapElements(Tensor& out, const std::array<const Tensor*, sizeof...(In)>& ins, F f) {
  detail::mapElementsImpl<Out, In...>(out, ins, f, std::index_sequence_for<In...>{});
}

} // namespace tcx::elementwise
