#pragma once
// A strategy as VTC draws it (Figure 10): the points-to graph over the VTOG
// tensors, physical tensors shaded, each virtual tensor pointing along its
// chosen edges to what it is virtual over; and what differs between two
// strategies, for the explorer's side-by-side panes.

#include "view/DisplayGraph.h"

#include <vector>

namespace tcx {
class PointsToGraph;
struct ExecPlan;
} // namespace tcx

namespace tcx::view {

DisplayGraph buildPointsToGraph(const PointsToGraph& strategy);

// The VTOG edges chosen by one strategy only and the tensors virtual in one
// only (both over the same VTOG), edges first.
std::vector<ItemRef> strategyDifferences(const PointsToGraph& a, const PointsToGraph& b);
// The data-movement ops one plan eliminates and the other keeps as kernels.
std::vector<ItemRef> strategyDifferences(const ExecPlan& a, const ExecPlan& b);

} // namespace tcx::view
