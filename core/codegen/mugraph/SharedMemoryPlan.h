#pragma once
// Where a block graph's tensors live in the dynamic shared memory of its
// kernel. The output accumulators and the for-loop accumulations live for
// the whole kernel; every other tensor only from the operator that defines it
// to its last use, in the order the code runs them (schedule()): within one
// iteration for the loop's Body, which recomputes its tensors every time,
// and to the end of the Body for loop-invariant tensors it reads. Tensors
// whose lifetimes do not overlap share bytes.

#include "mugraph/MuGraph.h"

#include <cstdint>
#include <vector>

namespace tcx::mugraphcuda {

struct SharedMemoryPlan {
  // Per operator, per output: the byte offset, or -1 where the tensor needs
  // no storage (a for-loop accumulation's float buffer included).
  std::vector<std::vector<int64_t>> offsets;
  // Per output accumulator, in order: its block's float buffer.
  std::vector<int64_t> accumulatorOffsets;
  int64_t bytes = 0;
};

// Whether an operator's outputs need storage of their own: not a Reshape
// (a view of its operand), a Constant (a literal) nor an output accumulator
// (its output is the parent's tensor).
bool needsStorage(mugraph::OpType type);

// The order the code runs a partitioned graph's operators: the loop
// Invariant ones, then the Body, then the After ones (LoopPhase.h), each in
// graph order.
std::vector<int> schedule(const mugraph::PartitionedGraph& body);

// Tensors are stored in their dtype, accumulators and for-loop accumulations
// in float; every offset is 16-byte aligned.
SharedMemoryPlan planSharedMemory(const mugraph::PartitionedGraph& body);

// The shape of one block's part of accumulator `op`'s output (its omap split).
Shape accumulatorBlockShape(const mugraph::PartitionedGraph& body, const mugraph::Operator& op);

} // namespace tcx::mugraphcuda
