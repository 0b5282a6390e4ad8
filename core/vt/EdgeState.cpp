#include "vt/EdgeState.h"

namespace tcx {

const char* edgeStateName(EdgeState state) {
  switch (state) {
  case EdgeState::Auto: return "auto";
  case EdgeState::Accepted: return "accepted";
  case EdgeState::Forced: return "forced";
  case EdgeState::Forbidden: return "forbidden";
  }
  return "?";
}

std::optional<EdgeState> parseEdgeState(std::string_view name) {
  for (EdgeState s : kEdgeStates)
    if (name == edgeStateName(s)) return s;
  return std::nullopt;
}

EdgeState edgeState(const StrategyConstraints& constraints, int edge) {
  if (constraints.forced.count(edge)) return EdgeState::Forced;
  if (constraints.forbidden.count(edge)) return EdgeState::Forbidden;
  if (constraints.accepted.count(edge)) return EdgeState::Accepted;
  return EdgeState::Auto;
}

StrategyConstraints withEdgeState(StrategyConstraints constraints, int edge, EdgeState state) {
  constraints.accepted.erase(edge);
  constraints.forced.erase(edge);
  constraints.forbidden.erase(edge);
  switch (state) {
  case EdgeState::Auto: break;
  case EdgeState::Accepted: constraints.accepted.insert(edge); break;
  case EdgeState::Forced: constraints.forced.insert(edge); break;
  case EdgeState::Forbidden: constraints.forbidden.insert(edge); break;
  }
  return constraints;
}

} // namespace tcx
