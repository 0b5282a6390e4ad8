#pragma once
// Seeded random inputs for a graph. Each input's stream is derived from the
// seed and the input's name, so adding an input does not change the others.

#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcx {

// Floats uniform in [-1, 1) (rounded to f16/bf16 when stored as such),
// integers uniform in [0, 4) (small, so index-like inputs stay in range),
// booleans with probability 1/2.
Tensor randomTensor(const TensorType& type, uint64_t seed);
std::map<std::string, Tensor> randomInputs(const Graph& graph, uint64_t seed);

} // namespace tcx
