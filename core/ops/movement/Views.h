#pragma once
// The index maps of the data-movement ops that are one strided view of
// their input: output element i reads input element view(i). The CPU
// kernels copy through them, and the virtual-tensor rules read the same
// maps, so each op's index logic lives here once. Each function checks its
// operands as shape inference does (raising ShapeInference or
// InvalidModel); the view's shape is the output's, with some dimensions
// split where the map is affine only per part (see StridedView).

#include "ir/Attribute.h"
#include "ops/movement/StridedCopy.h"

namespace tcx {

// Transpose by the `perm` attribute (reversed dimensions by default).
StridedView transposeView(const Shape& in, const AttrMap& attrs);
// DepthToSpace by `blocksize` and `mode`, as [N, C', H, y, W, x].
StridedView depthToSpaceView(const Shape& in, const AttrMap& attrs);
// SpaceToDepth by `blocksize`, as [N, y, x, C, H', W'].
StridedView spaceToDepthView(const Shape& in, const AttrMap& attrs);
// Slice by its starts, ends and optional axes and steps operands.
StridedView sliceView(const Shape& in, const Tensor& starts, const Tensor& ends, const Tensor* axes,
                      const Tensor* steps);
// Expand to (the broadcast of the input and) the `shape` operand.
StridedView expandView(const Shape& in, const Tensor& shape);
// Tile by the `repeats` operand, as [repeat_0, in_0, repeat_1, in_1, ...].
StridedView tileView(const Shape& in, const Tensor& repeats);

} // namespace tcx
