#pragma once
// The VTOG (VTC Definition 6) as a DisplayGraph: tensors as nodes,
// opportunities as edges coloured by Type I / Type II, each labelled with
// the op it eliminates, its mapping function, contiguity and saving (and
// whether that saving was estimated or measured); the strategy's chosen
// edges marked.

#include "view/DisplayGraph.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tcx {
class Vtog;
class VtcSession;
} // namespace tcx

namespace tcx::view {

struct VtogAnnotations {
  std::set<int> chosen;
  std::map<int, double> savings; // seconds, per edge, where known
  std::string savingSource;      // "estimated (h100-sxm)", "measured (NVIDIA H200)"
};

// The session's strategy: its chosen edges, each with the saving of the
// cover the global greedy chose it in, as its oracle saw it.
VtogAnnotations vtogAnnotations(const VtcSession& session);

DisplayGraph buildVtogGraph(const Vtog& vtog, const VtogAnnotations& annotations = {});

// The edges that conflict with `edgeId` (VTC's conflict set: edges out of
// the same tensor whose regions overlap), without the edge itself.
std::vector<ItemRef> conflictSetOf(const Vtog& vtog, int edgeId);

// "e3": how the views name VTOG edge 3 (ItemKind::Edge).
ItemRef vtogEdgeRef(int edgeId);

} // namespace tcx::view
