#pragma once
// The samples the view tests (and the graph GUI tests) draw, at reduced shapes.
#include "Samples.h"
#include "pipeline/VtcSession.h"

#include <memory>

namespace tcx::view::testing {

inline samples::LlamaDecodeConfig smallLlama(int layers = 1) {
  return samples::reducedLlama(layers);
}

// A session with the cost model's strategy selected.
inline std::unique_ptr<VtcSession> selectedSession(Graph graph) {
  auto s = std::make_unique<VtcSession>(std::move(graph), defaultGpuPreset());
  s->select(EdgeConstraintSpecs{});
  return s;
}

} // namespace tcx::view::testing
