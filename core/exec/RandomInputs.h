#pragma once
// Seeded random inputs for a graph. Each input's stream is derived from the
// seed and the input's name, so adding an input does not change the others.

#include "ir/Graph.h"
#include "ops/OpDef.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcx {

// Floats uniform in `range` (rounded to f16/bf16 when stored as such),
// integers uniform in [0, 4) (small, so index-like inputs stay in range),
// booleans with probability 1/2.
Tensor randomTensor(const TensorType& type, uint64_t seed, RandomRange range = {});
// Each input as randomTensor draws it, floats in the range the op that
// computes with it asks for (OpDef::randomRange: weights scaled by their
// fan-in, variances positive), else in [-1, 1).
std::map<std::string, Tensor> randomInputs(const Graph& graph, uint64_t seed);

} // namespace tcx
