#include "ops/nn/Window.h"

#include "ir/Attribute.h"

#include <algorithm>

namespace tcx::nn {

namespace {

AutoPad parseAutoPad(const std::string& s) {
  if (s == "NOTSET") return AutoPad::NotSet;
  if (s == "SAME_UPPER") return AutoPad::SameUpper;
  if (s == "SAME_LOWER") return AutoPad::SameLower;
  if (s == "VALID") return AutoPad::Valid;
  raise(ErrorKind::InvalidModel, "auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, not '{}'", s);
}

std::vector<int64_t> readList(const AttrMap& attrs, const char* name, size_t size, int64_t dflt, int64_t min) {
  std::vector<int64_t> v = attrs.getInts(name, std::vector<int64_t>(size, dflt));
  TCX_CHECK(v.size() == size, ErrorKind::InvalidModel, "{} has {} values, expected {}", name, v.size(), size);
  for (int64_t x : v) TCX_CHECK(x >= min, ErrorKind::InvalidModel, "{} must be >= {}, got {}", name, min, x);
  return v;
}

} // namespace

std::vector<AttrSpec> windowAttrSpecs() {
  return {{"auto_pad", AttrKind::String},
          {"dilations", AttrKind::Ints},
          {"kernel_shape", AttrKind::Ints},
          {"pads", AttrKind::Ints},
          {"strides", AttrKind::Ints}};
}

WindowAttrs readWindowAttrs(const AttrMap& attrs, int64_t spatialRank, const std::vector<int64_t>& weightKernel) {
  const size_t rank = static_cast<size_t>(spatialRank);
  WindowAttrs w;
  w.autoPad = parseAutoPad(attrs.getString("auto_pad", "NOTSET"));
  TCX_CHECK(!weightKernel.empty() || attrs.has("kernel_shape"), ErrorKind::InvalidModel,
            "attribute kernel_shape is required");
  w.kernel = attrs.has("kernel_shape") ? readList(attrs, "kernel_shape", rank, 1, 1) : weightKernel;
  for (int64_t k : w.kernel)
    TCX_CHECK(k >= 1, ErrorKind::ShapeInference, "the kernel {} has an empty dimension", shapeToString(w.kernel));
  TCX_CHECK(weightKernel.empty() || w.kernel == weightKernel, ErrorKind::ShapeInference,
            "kernel_shape {} does not match the weights' {}", shapeToString(w.kernel), shapeToString(weightKernel));
  w.strides = readList(attrs, "strides", rank, 1, 1);
  w.dilations = readList(attrs, "dilations", rank, 1, 1);
  // Explicit pads only apply without auto_pad; exporters sometimes write
  // zeros next to auto_pad, so they are ignored rather than rejected.
  w.pads = w.autoPad == AutoPad::NotSet ? readList(attrs, "pads", 2 * rank, 0, 0) : std::vector<int64_t>(2 * rank, 0);
  return w;
}

WindowPlacement placeWindow(const WindowAttrs& w, const std::vector<int64_t>& inputSize, bool ceilMode) {
  const int64_t rank = w.rank();
  WindowPlacement p;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t in = inputSize[d], stride = w.strides[d], span = w.span(d);
    int64_t out = 0, begin = w.pads[d], end = w.pads[rank + d];
    if (w.autoPad == AutoPad::SameUpper || w.autoPad == AutoPad::SameLower) {
      out = (in + stride - 1) / stride;
      const int64_t total = std::max<int64_t>(0, (out - 1) * stride + span - in);
      begin = w.autoPad == AutoPad::SameUpper ? total / 2 : total - total / 2;
      end = total - begin;
    } else {
      const int64_t room = in + begin + end - span;
      TCX_CHECK(room >= 0, ErrorKind::ShapeInference,
                "the window (extent {}) is larger than the padded input (extent {}) along spatial axis {}", span,
                in + begin + end, d);
      out = (ceilMode ? room + stride - 1 : room) / stride + 1;
      // A last window that would start in the trailing padding is dropped.
      if (ceilMode && (out - 1) * stride >= in + begin) --out;
    }
    p.outputSize.push_back(out);
    p.padsBegin.push_back(begin);
    p.padsEnd.push_back(end);
  }
  return p;
}

TapRange tapRange(int64_t start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
  TapRange r;
  r.start = start;
  // The smallest tap with start + tap * dilation >= lo, and the first past hi.
  r.first = start >= lo ? 0 : (lo - start + dilation - 1) / dilation;
  r.last = start >= hi ? 0 : std::min(kernel, (hi - start + dilation - 1) / dilation);
  return r;
}

Dims3 toDims3(const std::vector<int64_t>& v, int64_t fill) {
  Dims3 d{fill, fill, fill};
  std::copy(v.begin(), v.end(), d.end() - v.size());
  return d;
}

std::vector<int64_t> spatialDims(const Shape& shape, const char* what) {
  TCX_CHECK(shape.size() >= 3, ErrorKind::ShapeInference, "{} must have shape [N, C, spatial...], got {}", what,
            shapeToString(shape));
  TCX_CHECK(shape.size() <= 5, ErrorKind::Unsupported, "{} has {} spatial dimensions; at most 3 are supported", what,
            shape.size() - 2);
  return {shape.begin() + 2, shape.end()};
}

WindowGeometry windowGeometry(const WindowAttrs& w, const std::vector<int64_t>& inputSize,
                              const std::vector<int64_t>& outputSize, const std::vector<int64_t>& padsBegin) {
  return {toDims3(inputSize, 1),  toDims3(outputSize, 1),   toDims3(w.kernel, 1),
          toDims3(w.strides, 1),  toDims3(w.dilations, 1),  toDims3(padsBegin, 0)};
}

} // namespace tcx::nn
