#pragma once
// What a data-movement op does, as mapping functions (VTC Definition 2):
// the registry's movement ops describe themselves this way, and the VTC
// rules (vt/VtRules) derive every virtual-tensor opportunity from it. The
// same description drives the plan's residual copies and code generation,
// so an op's index logic lives in one place.

#include "ir/Tensor.h"
#include "index/MappingFunction.h"

#include <optional>
#include <span>
#include <vector>

namespace tcx {

class Node;

struct MovementSemantics {
  // The operands whose elements move (the rest are index operands: shapes,
  // starts, indices, pads); mapping sources refer to them by position here.
  std::vector<size_t> dataInputs;
  // For each output: output index -> (data input, index). Always present.
  std::vector<MappingFunction> outputMaps;
  // For each data input: input index -> (output, index), present when every
  // element of the input lands in exactly one place of the outputs (so the
  // input can be virtual over them); nullopt when elements are dropped
  // (Slice) or duplicated (Expand, Tile).
  std::vector<std::optional<MappingFunction>> inputMaps;
};

// Input types and the values of constant operands; semantics exist only
// when every index operand is a known constant.
struct MovementContext {
  const Node& node;
  std::span<const TensorType* const> inputTypes;
  std::span<const Tensor* const> inputValues;
  std::span<const TensorType> outputTypes;
};

// The semantics of `node` in its graph (its op's rule, given the node's
// operand types and constant operands; ops/movement/MovementRules.cpp);
// nullopt as the rule gives it, or when the op has none. VTC's graph and
// the movement ops' CUDA forms read the same mapping.
std::optional<MovementSemantics> nodeMovement(const Node& node);

} // namespace tcx
