#pragma once
// Output types of an operator added to a graph of some level (Mirage
// Algorithm 1's outputTensorShapeInfr).

#include "mugraph/MuGraph.h"

namespace tcx::mugraph {

// Raises ShapeInference (or InvalidModel for a reference to a later
// operator, or an operator `graph`'s level lacks) with the reason.
std::vector<TensorDesc> inferOutputs(const OperatorGraph& graph, const Operator& op);

} // namespace tcx::mugraph
