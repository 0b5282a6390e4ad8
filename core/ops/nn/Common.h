#pragma once
// Pieces shared by the nn family: the element-type sets the ops accept and
// the accumulator that GEMM-based kernels write their output through.

#include "ir/Dispatch.h"
#include "ir/Tensor.h"
#include "ops/nn/Gemm.h"

#include <algorithm>
#include <vector>

namespace tcx::nn {

// A set of element types: membership tests for inference and dispatch for
// kernels, with the same error for a dtype outside the set.
template <typename... Ts> struct DTypes {
  static bool contains(DType t) { return ((t == dtypeOf<Ts>()) || ...); }

  // Raises Unsupported unless `t` is in the set; `what` names the operand.
  static void check(DType t, const char* what) {
    TCX_CHECK(contains(t), ErrorKind::Unsupported, "{} has unsupported dtype {}", what, dtypeName(t));
  }

  template <typename F> static void dispatch(DType t, F&& f) {
    check(t, "the input");
    dispatchDType(t, [&]<typename T>() {
      if constexpr ((std::is_same_v<T, Ts> || ...)) f.template operator()<T>();
    });
  }
};

using FloatTypes = DTypes<float, Half, BFloat16, double>;
// MatMul and Gemm: ONNX also allows u32/u64, which tcx has no dtype for.
using ContractionTypes = DTypes<float, Half, BFloat16, double, int32_t, int64_t>;

// The GEMM accumulator behind an output tensor of T: the tensor's own storage
// when T is its accumulator type, else a temporary that finish() rounds into
// the tensor. Starts zeroed.
template <typename T> class OutputAccumulator {
public:
  using Acc = GemmAcc<T>;

  explicit OutputAccumulator(Tensor& out) : out_(out) {
    if constexpr (std::is_same_v<Acc, T>)
      std::fill(out.data<T>().begin(), out.data<T>().end(), T(0));
    else
      temp_.assign(static_cast<size_t>(out.numElements()), Acc(0));
  }

  Acc* data() {
    if constexpr (std::is_same_v<Acc, T>)
      return out_.data<T>().data();
    else
      return temp_.data();
  }

  void finish() {
    if constexpr (!std::is_same_v<Acc, T>) {
      std::span<T> out = out_.data<T>();
      for (size_t i = 0; i < temp_.size(); ++i) out[i] = static_cast<T>(temp_[i]);
    }
  }

private:
  Tensor& out_;
  std::vector<Acc> temp_;
};

} // namespace tcx::nn
