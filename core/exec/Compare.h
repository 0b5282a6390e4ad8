#pragma once
// How far a result is from the reference, on the scale of the reference:
// max |got - ref| / max |ref|. GPU kernels sum in other orders and round P
// or intermediates differently than the CPU reference; after a contraction
// over thousands of terms an element near zero can be off by a lot relative
// to itself but not relative to the tensor, which is what matters.

#include "ir/Tensor.h"

namespace tcx {

// Infinity when the shapes or dtypes differ, or got has a NaN where ref has
// none; 0 for identical tensors.
double scaledError(const Tensor& got, const Tensor& ref);

} // namespace tcx
