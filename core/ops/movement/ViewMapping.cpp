#include "ops/movement/ViewMapping.h"

#include <algorithm>
#include <numeric>

namespace tcx {

namespace {

// The row-major linear index of x over `shape` as an expression.
IndexExpr linearIndex(const Shape& shape) {
  std::vector<int64_t> strides = contiguousStrides(shape);
  IndexExpr linear = 0;
  for (size_t d = 0; d < shape.size(); ++d) linear = linear + IndexExpr::var(static_cast<int>(d)) * strides[d];
  return linear;
}

// Maps a view over a tensor of `virtualShape` (same element count as the
// view's shape) onto a source of `sourceShape`.
MappingFunction mapThroughView(const Shape& viewShape, const std::vector<int64_t>& viewStrides, int64_t viewOffset,
                               const Shape& virtualShape, const Shape& sourceShape) {
  MappingFunction f(virtualShape, {sourceShape});
  MappingPiece p;
  VarExtents ext = virtualShape;
  IndexExpr linear = linearIndex(virtualShape);
  std::vector<IndexExpr> digits = unflattenOffset(linear, viewShape, ext);
  IndexExpr offset = viewOffset;
  for (size_t d = 0; d < viewShape.size(); ++d) offset = offset + digits[d] * viewStrides[d];
  p.index = unflattenOffset(offset, sourceShape, ext);
  f.addPiece(std::move(p));
  return f;
}

} // namespace

MappingFunction mappingOfView(const StridedView& view, const Shape& outShape, const Shape& inShape) {
  return mapThroughView(view.shape, view.strides, view.offset, outShape, inShape);
}

std::optional<MappingFunction> inverseMappingOfView(const StridedView& view, const Shape& outShape, const Shape& inShape) {
  // A permutation view reads each input element once: its strides, sorted
  // in decreasing order with their dimensions, are the input's row-major
  // strides. Dimensions of size 1 never move and are left out.
  std::vector<size_t> dims;
  for (size_t d = 0; d < view.shape.size(); ++d)
    if (view.shape[d] != 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return view.strides[a] > view.strides[b]; });
  int64_t expected = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (view.strides[dims[i]] != expected) return std::nullopt;
    expected *= view.shape[dims[i]];
  }
  if (view.offset != 0 || expected != numElements(inShape)) return std::nullopt;
  // Walking the input row-major visits the view's digits in `dims` order;
  // each digit advances the output by its row-major stride in the view.
  std::vector<int64_t> outStrides = contiguousStrides(view.shape);
  Shape inverseShape;
  std::vector<int64_t> inverseStrides;
  for (size_t d : dims) {
    inverseShape.push_back(view.shape[d]);
    inverseStrides.push_back(outStrides[d]);
  }
  return mapThroughView(inverseShape, inverseStrides, 0, inShape, outShape);
}

MovementSemantics viewSemantics(const StridedView& view, const Shape& outShape, const Shape& inShape) {
  MovementSemantics s;
  s.dataInputs = {0};
  s.outputMaps.push_back(mappingOfView(view, outShape, inShape));
  s.inputMaps.push_back(inverseMappingOfView(view, outShape, inShape));
  return s;
}

} // namespace tcx
