#pragma once
// VTC Algorithm 2: build a points-to graph from the VTOG by global greedy.
// Tensors join the anchor set A one per round; a tensor joins either
// virtual, through the cover of its edges into A with the largest saving,
// or (when no cover saves anything yet) physical, if that lets another
// tensor's cover save; the search stops when nothing reachable saves.
// Savings come from a SavingOracle and are re-measured only for covers with
// an edge into the tensor chosen last, as in the paper.
//
// User constraints, as the explorer sets them per edge:
//   forced    - chosen whatever its saving (an error if it cannot be);
//   accepted  - chosen if it fits the forced edges and does not lose time;
//   forbidden - never chosen.

#include "vt/SavingOracle.h"
#include "vt/Vtog.h"

#include <set>
#include <string>
#include <vector>

namespace tcx {

struct StrategyConstraints {
  std::set<int> accepted, forced, forbidden;
};

struct GreedyStep {
  const Value* tensor = nullptr;
  std::vector<int> cover; // empty: anchored physical
  double saving = 0;      // seconds, as the oracle saw it then
  std::string reason;     // "forced", "accepted", "greedy", "physical (unlocks e4)"
};

struct GreedyResult {
  std::set<int> selected;
  std::vector<GreedyStep> steps;
  std::vector<std::string> notes; // constraints that could not be honoured, and why
  double baselineSeconds = 0;     // no edges
  double finalSeconds = 0;
  int oracleCalls = 0;
};

// Raises InvalidArgument when the constraints contradict each other (an edge
// both forced and forbidden, forced edges that conflict or form a cycle).
GreedyResult runGlobalGreedy(const Vtog& vtog, SavingOracle& oracle, const StrategyConstraints& constraints = {});

} // namespace tcx
