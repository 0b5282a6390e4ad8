#pragma once
// A VTOG edge's state as the explorers edit it (the desktop's strategy
// table, `tcx serve`): one of the three constraint sets of the global greedy
// (vt/GlobalGreedy.h), or none.

#include "vt/GlobalGreedy.h"

#include <array>
#include <optional>
#include <string_view>

namespace tcx {

enum class EdgeState { Auto, Accepted, Forced, Forbidden };
inline constexpr std::array kEdgeStates = {EdgeState::Auto, EdgeState::Accepted, EdgeState::Forced,
                                           EdgeState::Forbidden};

const char* edgeStateName(EdgeState state); // "auto", "accepted", "forced", "forbidden"
std::optional<EdgeState> parseEdgeState(std::string_view name);

EdgeState edgeState(const StrategyConstraints& constraints, int edge);
// `constraints` with `edge` moved into the set of `state` (out of the others).
StrategyConstraints withEdgeState(StrategyConstraints constraints, int edge, EdgeState state);

} // namespace tcx
