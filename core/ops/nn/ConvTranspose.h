#pragma once
// ConvTranspose's attributes resolved against its operands: the output
// size and the padding in effect (from pads, output_padding, output_shape or
// auto_pad), which the CPU kernel and the CUDA form share.

#include "ir/Attribute.h"
#include "ir/Shape.h"
#include "ops/nn/Patches.h"

namespace tcx::nn {

struct ConvTransposePlan : WindowGeometry {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t filters = 0;
  int64_t group = 1;
  Shape output;
};

// X is [N, C, spatial...] and W [C, M/group, kernel...]; raises
// ShapeInference or InvalidModel for operands or attributes that do not fit.
ConvTransposePlan planConvTranspose(const Shape& x, const Shape& w, const AttrMap& attrs);

} // namespace tcx::nn
