#pragma once
// Row-major iteration over a shape while tracking element offsets into
// several operands with their own strides (0 for a broadcast dimension).
// This is the loop at the heart of broadcasting element-wise kernels, Expand
// and strided copies.

#include "ir/Shape.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tcx {

// Strides of `in` as seen from the output shape `out` under numpy
// broadcasting: dimensions aligned on the right, 0 where `in` has size 1 or
// is missing.
std::vector<int64_t> broadcastStrides(const Shape& in, const Shape& out);

// Calls f(offsets) for every index of `shape` in row-major order, where
// offsets[k] = sum_d index[d] * strides[k][d]. The innermost dimension is a
// tight loop, so kernels built on this run at memory speed for large tensors.
template <size_t N, typename F>
void stridedLoop(const Shape& shape, const std::array<const int64_t*, N>& strides, F&& f) {
  const size_t rank = shape.size();
  for (int64_t d : shape)
    if (d == 0) return;
  std::array<int64_t, N> offsets{};
  if (rank == 0) {
    f(offsets);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = shape[rank - 1];
  std::array<int64_t, N> innerStride;
  for (size_t k = 0; k < N; ++k) innerStride[k] = strides[k][rank - 1];
  while (true) {
    std::array<int64_t, N> o = offsets;
    for (int64_t i = 0; i < inner; ++i) {
      f(o);
      for (size_t k = 0; k < N; ++k) o[k] += innerStride[k];
    }
    // Advance the outer dimensions like an odometer.
    size_t d = rank - 1;
    while (d-- > 0) {
      ++index[d];
      for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
      if (index[d] < shape[d]) break;
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * shape[d];
      index[d] = 0;
      if (d == 0) return;
    }
    if (rank == 1) return;
  }
}

} // namespace tcx
