#pragma once
// The one matrix-multiply core of the nn family: MatMul, Gemm, Conv and
// ConvTranspose all reduce to batches of C += alpha * A * B.
//
// The core packs blocks of A and B into contiguous panels of the accumulator
// type (so f16/bf16 are converted once per element, not per multiply-add),
// runs a register-blocked micro-kernel over them, and spreads the batch and
// the columns (or rows) of C over threads. A single row or column of C is a
// matrix-vector product and streams the matrix instead of packing it.

#include "ir/DType.h"
#include "ops/nn/Patches.h"

#include <cstdint>
#include <functional>
#include <type_traits>
#include <variant>

namespace tcx::nn {

// The type products are summed in: float for f16/bf16/f32, double for f64,
// and int64 for integers (the low bits are what a wrapping int32 sum gives).
template <typename T> using GemmAcc = std::conditional_t<std::is_integral_v<T>, int64_t, ComputeType<T>>;

// A matrix of T read through strides: element (i, j) is data[i * rowStride + j * colStride].
template <typename T> struct StridedMatrix {
  const T* data = nullptr;
  int64_t rowStride = 0;
  int64_t colStride = 0;

  StridedMatrix transposed() const { return {data, colStride, rowStride}; }
};

// The operands of one product of a batch. C is row-major with row stride
// ldc; the product is added to what it holds.
template <typename T> struct GemmOperands {
  StridedMatrix<T> a;                               // M x K
  std::variant<StridedMatrix<T>, PatchMatrix<T>> b; // K x N
  GemmAcc<T>* c = nullptr;                          // M x N
  int64_t ldc = 0;
};

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
};

// For every b in [0, batch): C += alpha * A * B, with the operands that
// operandsOf(b) returns (called from worker threads, so it must be pure).
// Products of the same batch must not share C.
template <typename T>
void gemm(GemmShape shape, GemmAcc<T> alpha, int64_t batch, const std::function<GemmOperands<T>(int64_t)>& operandsOf);

} // namespace tcx::nn
