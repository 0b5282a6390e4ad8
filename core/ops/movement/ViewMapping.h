#pragma once
// The bridge from the data-movement kernels' StridedViews to VTC's mapping
// functions: a movement op describes its index map once, as a view, and
// that view is both its CPU kernel and its virtual-tensor rule.

#include "ops/MovementSemantics.h"
#include "ops/movement/StridedCopy.h"

#include <optional>

namespace tcx {

// output index -> input index for `view` (an output of `outShape` reading an
// input of `inShape`).
MappingFunction mappingOfView(const StridedView& view, const Shape& outShape, const Shape& inShape);

// input index -> output index when the view visits every input element
// exactly once (a permutation of the input's elements: Transpose, Reshape,
// DepthToSpace); nullopt when it drops or repeats elements (Slice, Expand,
// Tile) or reads them backwards.
std::optional<MappingFunction> inverseMappingOfView(const StridedView& view, const Shape& outShape, const Shape& inShape);

// The semantics of a one-input op defined by a view: data input 0.
MovementSemantics viewSemantics(const StridedView& view, const Shape& outShape, const Shape& inShape);

} // namespace tcx
