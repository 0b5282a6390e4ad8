#pragma once
// Questions about the regions of a virtual tensor's index space that
// mappings cover: do two edges' regions overlap (a conflict, VTC 5.1), does
// a set of edges cover the whole tensor exactly once (a valid choice of
// edges for one node of the points-to graph)?
//
// Regions are unions of pieces bounded by constraints lo <= e(x) < hi. The
// questions are decided on sample points: every corner and every index just
// inside and outside a constraint's boundary along each variable, plus
// random points. That is exact for the box-shaped regions data-movement ops
// produce and a sound check otherwise.

#include "index/MappingFunction.h"

#include <vector>

namespace tcx {

bool regionsOverlap(const MappingFunction& a, const MappingFunction& b);
// Whether every index of the (common) virtual shape lies in exactly one of
// the mappings' pieces.
bool coverExactlyOnce(const std::vector<const MappingFunction*>& mappings);

} // namespace tcx
