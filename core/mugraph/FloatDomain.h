#pragma once
// Real arithmetic in double precision: the interpreter's numerical reference.
// Double rather than the tensors' f16/bf16 so that the reference isolates the
// algorithm from rounding; comparisons use a tolerance all the same, since
// reassociated sums (FlashAttention's tiled softmax) round differently.

#include "mugraph/Interpreter.h"

#include <cmath>
#include <random>

namespace tcx::mugraph {

struct FloatDomain {
  using Value = double;
  Value zero() const { return 0.0; }
  Value constant(double v) const { return v; }
  Value add(Value a, Value b) const { return a + b; }
  Value sub(Value a, Value b) const { return a - b; }
  Value mul(Value a, Value b) const { return a * b; }
  Value div(Value a, Value b) const { return a / b; }
  Value exp(Value a) const { return std::exp(a); }
  Value sqrt(Value a) const { return std::sqrt(a); }
  // Uniform in [-1, 1): keeps exp() and products of a few terms well scaled.
  Value random(std::mt19937_64& rng) const { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }
};

extern template class Interpreter<FloatDomain>;

} // namespace tcx::mugraph
