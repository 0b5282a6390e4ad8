#pragma once
// How an ItemRef finds its counterparts in the other views (linked
// selection): the plan kernel that computes it (latency table, source
// span) and the VTOG edges it takes part in (strategy table).

#include "pipeline/VtcSession.h"
#include "view/DisplayGraph.h"
#include "view/ItemRef.h"

#include <optional>
#include <vector>

namespace tcx::view {

// The VTOG edge id of an Edge ref (3 for "edge:e3"), or nullopt.
std::optional<int> edgeIdOf(const ItemRef& ref);
ItemRef kernelRef(const PlanKernel& kernel); // its fused kernel

// The index in plan.kernels of the kernel that computes `ref` (a node, a
// value it produces, a fused kernel); nullopt for inputs, constants, ops
// the plan eliminated, groups and edges.
std::optional<size_t> planKernelOf(const ExecPlan& plan, const ItemRef& ref);

// VTOG edges `ref` takes part in: the edge itself, the edges eliminating a
// node, the edges out of and into a tensor.
std::vector<int> vtogEdgesOf(const Vtog& vtog, const ItemRef& ref);

// What a view draws for `ref`: the item itself or the group hiding it;
// failing that a stand-in (a kernel's first drawn op, an op's VTOG edge or
// tensor, an edge's op), so that a selection made anywhere shows
// everywhere. nullopt when the view has nothing related.
std::optional<ItemRef> counterpartIn(const DisplayGraph& graph, const VtcSession& session,
                                           const ItemRef& ref);

} // namespace tcx::view
