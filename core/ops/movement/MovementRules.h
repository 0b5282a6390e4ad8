#pragma once
// Each data-movement op as mapping functions (OpDef::movement): the
// virtual-tensor rules VTC Algorithm 1 reads. Built from the same views and
// operand parsing as the ops' kernels. nullopt when an index operand is not
// a constant (or, for Pad, ScatterND and Gather, when the op's parameters
// fall outside what one mapping function expresses).

#include "ops/MovementSemantics.h"

#include <optional>

namespace tcx {

// Reshape, Squeeze, Unsqueeze, Flatten, Identity: row-major relabelling.
std::optional<MovementSemantics> relabelRule(const MovementContext& ctx);
std::optional<MovementSemantics> transposeRule(const MovementContext& ctx);
std::optional<MovementSemantics> depthToSpaceRule(const MovementContext& ctx);
std::optional<MovementSemantics> spaceToDepthRule(const MovementContext& ctx);
std::optional<MovementSemantics> sliceRule(const MovementContext& ctx);
std::optional<MovementSemantics> expandRule(const MovementContext& ctx);
std::optional<MovementSemantics> tileRule(const MovementContext& ctx);
std::optional<MovementSemantics> concatRule(const MovementContext& ctx);
std::optional<MovementSemantics> splitRule(const MovementContext& ctx);
std::optional<MovementSemantics> padRule(const MovementContext& ctx);
std::optional<MovementSemantics> scatterNDRule(const MovementContext& ctx);
std::optional<MovementSemantics> gatherRule(const MovementContext& ctx);

} // namespace tcx
