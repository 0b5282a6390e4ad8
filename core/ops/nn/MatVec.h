#pragma once
// Matrix-vector products for the GEMM core (private to Gemm.cpp). A product
// with a single row or column of C reads each element of the matrix once, so
// packing would only add a copy: these loops stream the matrix as it is,
// converting elements as they go.

#include "ops/nn/Gemm.h"

#include <cstdint>
#include <vector>

namespace tcx::nn::detail {

// sum_i x[i] * p[i * stride] for i in [0, k).
template <typename Acc, typename T> Acc dotProduct(const Acc* x, const T* p, int64_t stride, int64_t k) {
  if (stride != 1) {
    Acc sum = 0;
    for (int64_t i = 0; i < k; ++i) sum += x[i] * static_cast<Acc>(p[i * stride]);
    return sum;
  }
  // Independent partial sums let the compiler vectorise the reduction.
  constexpr int64_t kLanes = 8;
  Acc partial[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= k; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) partial[l] += x[i + l] * static_cast<Acc>(p[i + l]);
  Acc sum = 0;
  for (int64_t l = 0; l < kLanes; ++l) sum += partial[l];
  for (; i < k; ++i) sum += x[i] * static_cast<Acc>(p[i]);
  return sum;
}

// y[j * yStride] += sum_k x[k] * B(k, j) for j in [0, n). `scratch` stands
// in for a strided y where the loop wants a contiguous one.
template <typename Acc, typename T>
void matVec(int64_t k, int64_t n, const Acc* x, const StridedMatrix<T>& b, Acc* y, int64_t yStride,
            std::vector<Acc>& scratch) {
  if (b.colStride != 1) { // a dot product per column of B
    for (int64_t j = 0; j < n; ++j) y[j * yStride] += dotProduct(x, b.data + j * b.colStride, b.rowStride, k);
    return;
  }
  // Rows of B are contiguous: accumulate x[k] * row k into a contiguous y,
  // four rows at a time to cut the loads and stores of y.
  Acc* out = y;
  if (yStride != 1) {
    scratch.assign(static_cast<size_t>(n), Acc(0));
    out = scratch.data();
  }
  int64_t i = 0;
  for (; i + 4 <= k; i += 4) {
    const T* r0 = b.data + i * b.rowStride;
    const T* r1 = r0 + b.rowStride;
    const T* r2 = r1 + b.rowStride;
    const T* r3 = r2 + b.rowStride;
    const Acc x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
    for (int64_t j = 0; j < n; ++j)
      out[j] += x0 * static_cast<Acc>(r0[j]) + x1 * static_cast<Acc>(r1[j]) + x2 * static_cast<Acc>(r2[j]) +
                x3 * static_cast<Acc>(r3[j]);
  }
  for (; i < k; ++i) {
    const T* r = b.data + i * b.rowStride;
    for (int64_t j = 0; j < n; ++j) out[j] += x[i] * static_cast<Acc>(r[j]);
  }
  if (yStride != 1)
    for (int64_t j = 0; j < n; ++j) y[j * yStride] += out[j];
}

} // namespace tcx::nn::detail
