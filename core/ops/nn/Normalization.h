#pragma once
// What the normalization ops share: the mean and inverse standard deviation
// of a run of values. Sums are taken in double, and the variance about the
// mean (two passes), so long rows of f16/bf16 data lose nothing.

#include "ir/Attribute.h"
#include "ir/DType.h"
#include "ir/Shape.h"

#include <cmath>
#include <cstdint>

namespace tcx::nn {

// LayerNormalization's rows: the dimensions from `axis` on are normalised
// together (LayerNormalizationOp.cpp).
struct LayerNormDims {
  int64_t axis = 0;
  int64_t rows = 1;
  Shape normalized; // the dimensions from axis on
  Shape statistics; // the shape of Mean and InvStdDev
};
LayerNormDims layerNormDims(const Shape& x, const AttrMap& attrs);

// LpNormalization's view of its input as [outer, n, inner] around the
// normalised axis, and its order p, 1 or 2 (LpNormalizationOp.cpp).
struct AxisView {
  int64_t axis = 0;
  int64_t outer = 1;
  int64_t n = 1;
  int64_t inner = 1;
};
AxisView axisView(const Shape& x, const AttrMap& attrs);
int64_t normOrder(const AttrMap& attrs);

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
