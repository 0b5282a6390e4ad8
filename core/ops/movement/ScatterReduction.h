#pragma once
// The scatters' `reduction` attribute: how an update combines with the
// element it lands on. The CPU kernels (Scatter.cpp) and the CUDA forms
// (CudaScatter.cpp) read it alike.

#include "ir/Attribute.h"

namespace tcx {

enum class Reduction { None, Add, Mul, Max, Min };

// Raises InvalidModel on an unknown reduction.
Reduction scatterReduction(const AttrMap& attrs);

} // namespace tcx
