#pragma once
// Index arithmetic of μGraph kernels as CUDA expressions. Shapes are known
// when the code is generated, so every extent and stride is a literal and
// only the element, grid and for-loop indices are variables.

#include "ir/Shape.h"
#include "mugraph/Operator.h"

#include <string>
#include <vector>

namespace tcx::mugraphcuda {

// The offset, through `strides`, of element `i` (an expression) of a
// row-major tensor of `shape`: the sum over dims of (i / s_d % shape_d) *
// strides_d, leaving out size-1 dims and zero strides.
std::string stridedOffset(const std::string& i, const Shape& shape, const std::vector<int64_t>& strides);

// The offset, in a row-major tensor of `container` shape, of element `i` of a
// box of shape `box` that starts at the container's origin.
std::string boxOffset(const std::string& i, const Shape& box, const Shape& container);

// mugraph::chunkOffset (Partition.h) as an expression: the linear offset,
// through `strides`, of the chunk of shape `chunk` that the index variables
// `names` (one per dimension of `dims`) select through `map`.
std::string chunkOffsetExpr(const Shape& chunk, const Shape& dims, const mugraph::DimMap& map,
                            const std::vector<std::string>& names, const std::vector<int64_t>& strides);

// "a + b", dropping terms that are "0"; "0" when none remain.
std::string sumOf(const std::vector<std::string>& terms);

} // namespace tcx::mugraphcuda
