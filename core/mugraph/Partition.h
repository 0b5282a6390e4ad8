#pragma once
// The index arithmetic of imap, omap and fmap (Mirage §2, Figure 3). A list
// of dimensions (the grid's, or the for-loop's) maps each to a data dimension
// or to φ; every data dimension is split into equal chunks, one per
// combination of the dimensions mapped to it, the first listed outermost.
// An input iterator applies the grid's split, then the for-loop's split to
// its block's chunk; an output accumulator reverses both.

#include "mugraph/Operator.h"

namespace tcx::mugraph {

// `shape` with each mapped data dimension divided by the dimensions mapped to
// it; raises ShapeInference naming `what` if a split is uneven or a map is
// malformed (wrong length, a dimension out of range, or φ where `allowReplica` is false).
Shape splitShape(const Shape& shape, const Shape& dims, const DimMap& map, bool allowReplica, const char* what);
// The inverse: each mapped data dimension multiplied by the dimensions mapped to it.
Shape joinShape(const Shape& chunk, const Shape& dims, const DimMap& map);
// Where chunk `index` (one coordinate per dimension of `dims`) starts, for chunks of shape `chunk`.
Shape chunkOffset(const Shape& chunk, const Shape& dims, const DimMap& map, const Shape& index);

} // namespace tcx::mugraph
