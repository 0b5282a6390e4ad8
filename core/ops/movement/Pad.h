#pragma once
// Pad's parameters, per axis: the CPU kernel (Pad.cpp) and the CUDA form
// (Cuda.cpp) read them alike.

#include "ir/Attribute.h"
#include "ir/Tensor.h"

#include <cstdint>
#include <vector>

namespace tcx {

enum class PadMode { Constant, Reflect, Edge, Wrap };

// The `mode` attribute; raises InvalidModel on an unknown one.
PadMode padMode(const AttrMap& attrs);

// One axis of the pad: negative pads first crop the input to [cropBegin,
// cropBegin + kept), then the output has `before` padding elements, the
// kept ones and the rest.
struct AxisPad {
  int64_t cropBegin;
  int64_t kept;
  int64_t before;
  int64_t size; // of the output

  AxisPad(int64_t dim, int64_t begin, int64_t end);

  // The input index that output index o reads, or -1 for the constant.
  int64_t source(int64_t o, PadMode mode) const;
};

// Every axis of an input of shape `in`, from the pads and optional axes
// operands; raises ShapeInference on inconsistent ones.
std::vector<AxisPad> axisPads(const Shape& in, const Tensor& padsValue, const Tensor* axesValue, PadMode mode);

} // namespace tcx
