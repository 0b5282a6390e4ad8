#pragma once
// Whole-μGraph validity beyond what adding an operator checks (shapes, the
// operators a level allows, even partitions, omap on data dims): memory
// budgets of a GPU preset and dead tensors (Mirage Algorithm 1, lines 18
// and 29).

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"

#include <string>
#include <vector>

namespace tcx::mugraph {

struct Validation {
  std::vector<std::string> problems; // each names the graph and operator
  bool ok() const { return problems.empty(); }
};

// Shared memory of a block graph: every tensor of one iteration plus the
// output accumulators' block buffers, which live across iterations. Registers
// of a thread graph: every tensor of one thread's iteration, in 32-bit words.
int64_t sharedMemoryBytes(const PartitionedGraph& block);
int64_t registerWords(const PartitionedGraph& thread);

Validation validate(const KernelGraph& graph, const GpuPreset& preset = defaultGpuPreset());

} // namespace tcx::mugraph
