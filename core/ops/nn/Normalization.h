#pragma once
// What the normalization ops share: the mean and inverse standard deviation
// of a run of values. Sums are taken in double, and the variance about the
// mean (two passes), so long rows of f16/bf16 data lose nothing.

#include "ir/DType.h"

#include <cmath>
#include <cstdint>

namespace tcx::nn {

struct Moments {
  double mean = 0;
  double invStdDev = 0; // 1 / sqrt(variance + epsilon)
};

template <typename T> Moments moments(const T* x, int64_t n, double epsilon) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]);
  const double mean = n > 0 ? sum / static_cast<double>(n) : 0.0;
  double squares = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(x[i]) - mean;
    squares += d * d;
  }
  const double variance = n > 0 ? squares / static_cast<double>(n) : 0.0;
  return {mean, 1.0 / std::sqrt(variance + epsilon)};
}

} // namespace tcx::nn
