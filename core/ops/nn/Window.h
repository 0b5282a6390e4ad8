#pragma once
// The sliding window that Conv, ConvTranspose and the pools share: the
// kernel_shape, strides, dilations, pads and auto_pad attributes, and where
// the window lands on the input (output extent and padding in effect).

#include "ops/OpDef.h"
#include "ops/nn/Patches.h"

#include <cstdint>
#include <vector>

namespace tcx::nn {

enum class AutoPad { NotSet, SameUpper, SameLower, Valid };

struct WindowAttrs {
  AutoPad autoPad = AutoPad::NotSet;
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads; // all begins, then all ends, as ONNX lists them

  int64_t rank() const { return static_cast<int64_t>(kernel.size()); }
  // The extent of the dilated kernel along dimension d.
  int64_t span(int64_t d) const { return (kernel[d] - 1) * dilations[d] + 1; }
};

// The attribute specs of WindowAttrs, for OpDef::attributes.
std::vector<AttrSpec> windowAttrSpecs();

// Reads the window attributes of an op with `spatialRank` spatial dimensions.
// `weightKernel` is the kernel shape the weights imply (Conv); when empty,
// kernel_shape is required (pools). Raises InvalidModel on bad values.
WindowAttrs readWindowAttrs(const AttrMap& attrs, int64_t spatialRank, const std::vector<int64_t>& weightKernel = {});

struct WindowPlacement {
  std::vector<int64_t> outputSize;
  std::vector<int64_t> padsBegin;
  std::vector<int64_t> padsEnd;
};

// Output extent and padding of a window sliding over `inputSize`. With
// ceilMode a partial last window counts, as long as it starts inside the
// input or the leading padding. Raises ShapeInference if no window fits.
WindowPlacement placeWindow(const WindowAttrs& w, const std::vector<int64_t>& inputSize, bool ceilMode = false);

// The taps [first, last) of a window along one dimension whose input
// coordinate start + tap * dilation lies in [lo, hi).
struct TapRange {
  int64_t start = 0; // input coordinate of tap 0
  int64_t first = 0;
  int64_t last = 0;

  int64_t size() const { return last > first ? last - first : 0; }
};
TapRange tapRange(int64_t start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi);

// Spatial sizes of at most three dimensions as Dims3, with leading `fill`s.
Dims3 toDims3(const std::vector<int64_t>& v, int64_t fill);

// The geometry of window `w` over `inputSize`, producing `outputSize` with
// `padsBegin` in effect.
WindowGeometry windowGeometry(const WindowAttrs& w, const std::vector<int64_t>& inputSize,
                              const std::vector<int64_t>& outputSize, const std::vector<int64_t>& padsBegin);

// The spatial dimensions of an [N, C, spatial...] shape; raises ShapeInference
// unless there are 1 to 3 of them.
std::vector<int64_t> spatialDims(const Shape& shape, const char* what);

} // namespace tcx::nn
