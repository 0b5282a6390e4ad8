#pragma once
// Running one node outside any graph walk: the shared step of shape
// inference, constant folding and the reference executor.

#include "ir/Graph.h"
#include "ops/OpDef.h"

#include <span>
#include <vector>

namespace tcx {

// Output types of `node` for these input types and (possibly null) values.
std::vector<TensorType> inferNodeTypes(const Node& node, std::span<const TensorType* const> inputTypes,
                                       std::span<const Tensor* const> inputValues);

// Sets the types of `node`'s results from its operands' types and, for
// constant operands, their values.
void inferNode(Node& node);

// Runs the CPU kernel of `node` on `inputs` (nullptr for omitted optional
// inputs) and returns freshly allocated outputs.
std::vector<Tensor> evaluateNode(const Node& node, std::span<const Tensor* const> inputs);

} // namespace tcx
