#pragma once
// When, relative to a partitioned graph's for-loop, each tensor is computed.
//
// Mirage's block graphs run their body once per for-loop iteration; its
// implementation also accumulates tensors across the loop (forloop_accum) and
// runs operators on the accumulated values once the loop ends. tcx keeps the
// two apart by phase:
//   Invariant  the same in every iteration: constants, chunks an input
//              iterator loads with fmap φ on every for-loop dim, and anything
//              computed from those alone. Loaded and computed once, before
//              the loop.
//   Body       depends on the iteration: computed in every iteration.
//   After      a ForLoopSum or ForLoopRms, or computed from one: once, after
//              the loop.
// An operator may not mix Body and After operands (a per-iteration value has
// no meaning after the loop), a for-loop accumulation may not read an After
// tensor, and an output accumulator of an After tensor stores it once, so its
// fmap must be φ on every for-loop dim.
//
// The interpreter, the cost model and the CUDA emitter all schedule a
// partitioned graph by these phases, so they agree on what runs how often.

#include "mugraph/Operator.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tcx::mugraph {

enum class LoopPhase : uint8_t { Invariant, Body, After };

// Why `op` cannot read operands of these phases, or nullopt if it can.
std::optional<std::string> phaseConflict(const Operator& op, std::span<const LoopPhase> operands);

// The phase of `op`'s outputs from its operands' phases. Raises InvalidModel naming the operator when it mixes Body
// and After operands, accumulates an After tensor, or stores an After tensor
// with a data-dimension fmap.
LoopPhase phaseOf(const Operator& op, std::span<const LoopPhase> operands);

// Every operator's phase, in order.
std::vector<LoopPhase> loopPhases(const PartitionedGraph& graph);

// When `op` runs: its outputs' phase, except that a for-loop accumulation
// and an output accumulator of an Invariant tensor accumulate in the Body.
LoopPhase runsIn(const Operator& op, LoopPhase outputs);

bool isForLoopAccumulation(OpType type); // ForLoopSum or ForLoopRms

// How many squares a ForLoopRms `op` of `graph` averages per row: its
// operand's last dim in every iteration.
int64_t rmsCount(const PartitionedGraph& graph, const Operator& op);

} // namespace tcx::mugraph
