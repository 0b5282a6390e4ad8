#pragma once
// A points-to graph (VTC 5.1): a choice of VTOG edges under which every
// tensor is either physical (no chosen edges) or virtual through a cover of
// compatible edges, with no cycles, so that every virtual tensor resolves to
// physical storage. It is one virtual-tensor strategy for the whole graph.

#include "vt/Vtog.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {

class PointsToGraph {
public:
  PointsToGraph(const Vtog& vtog, std::set<int> selected);

  const Vtog& vtog() const { return *vtog_; }
  const std::set<int>& selected() const { return selected_; }
  bool isVirtual(const Value* v) const { return chosen_.count(v) != 0; }
  // The chosen edges out of v (empty for a physical tensor).
  const std::vector<int>& edgesOf(const Value* v) const;

  // Why this is not a valid points-to graph; empty when it is: a node whose
  // chosen edges do not cover it exactly once, or a cycle.
  std::vector<std::string> problems() const;
  bool valid() const { return problems().empty(); }

  // V's mapping onto physical tensors (VTC's F_outer o F_base composed down
  // the chosen edges); the sources are the physical tensors listed. A
  // physical tensor maps to itself. Requires a valid graph.
  struct Resolution {
    MappingFunction mapping;
    std::vector<const Value*> physical; // one per mapping source
  };
  const Resolution& resolve(const Value* v) const;

private:
  const Vtog* vtog_;
  std::set<int> selected_;
  std::unordered_map<const Value*, std::vector<int>> chosen_;
  mutable std::unordered_map<const Value*, Resolution> resolved_;
};

} // namespace tcx
