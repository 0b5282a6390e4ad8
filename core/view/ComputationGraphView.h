#pragma once
// The computation graph as a DisplayGraph: ops as nodes (data-movement ops
// marked), tensors as edges, grouped by a GroupTree. Expanded groups are
// clusters; every other group is one node counting its ops, with the edges
// of its ops re-targeted to it and the graph inputs and outputs only it
// touches folded into it.

#include "view/DisplayGraph.h"
#include "view/GroupTree.h"

#include <set>

namespace tcx {
class Graph;
}

namespace tcx::view {

DisplayGraph buildComputationGraph(const Graph& graph, const GroupTree& groups, const std::set<ItemRef>& expanded);

} // namespace tcx::view
