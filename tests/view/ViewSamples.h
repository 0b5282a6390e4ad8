#pragma once
// The samples the view tests (and the graph GUI tests) draw, at reduced shapes.
#include "Samples.h"
#include "pipeline/VtcSession.h"

#include <memory>

namespace tcx::view::testing {

inline samples::LlamaDecodeConfig smallLlama(int layers = 1) {
  samples::LlamaDecodeConfig c{2, 24, 64, 4, 2, 16, DType::BF16};
  c.layers = layers;
  c.intermediate = 128;
  return c;
}

// A session with the cost model's strategy selected.
inline std::unique_ptr<VtcSession> selectedSession(Graph graph) {
  auto s = std::make_unique<VtcSession>(std::move(graph), defaultGpuPreset());
  s->select(EdgeConstraintSpecs{});
  return s;
}

} // namespace tcx::view::testing
