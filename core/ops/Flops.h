#pragma once
// The shared forms of OpDef::flops, the compute side of the cost model's
// roofline (core/cost): floating-point operations per element of a node's
// input or output, a multiply-add counting two. Contractions count theirs
// next to their kernels (ops/nn).

#include <functional>

namespace tcx {

class Node;

using FlopsFn = std::function<double(const Node&)>;

// `perElement` for each element of the node's first result: element-wise
// ops compute each result from its operands at that place.
FlopsFn flopsPerOutputElement(double perElement = 1);

// `perElement` for each element of the node's first operand: reductions fold
// each once, normalisations pass over each a fixed number of times.
FlopsFn flopsPerInputElement(double perElement);

} // namespace tcx
