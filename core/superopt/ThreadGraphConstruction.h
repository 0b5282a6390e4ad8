#pragma once
// Thread-graph construction (Mirage §4.2, Algorithm 1 lines 32-38): block
// graphs are searched exhaustively, thread graphs are built by rules. Each
// rule is a pattern of block operators and the thread graph that replaces a
// match; a match becomes one graph-defined block operator whose body runs in
// registers, so its intermediates never touch shared memory.
//
// Pattern: element-wise operators (EwExp, EwAdd, EwMul, EwDiv, Sqrt, Square,
// SiLU) whose operands have their result's shape (no broadcasting), linked
// into a chain (or, where an operator takes two such results, a tree) in
// which every result but the last has exactly one consumer, the next
// operator. A result also read by an output accumulator or any other
// operator ends the chain: its value must reach shared memory anyway. The
// thread graph gives each thread a slice of the last dimension and loops
// over leading dimensions until a thread's tensors fit in registers; a match
// that never fits is left alone.

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"

namespace tcx::superopt {

// Returns `graph` with every block graph's matches replaced; a graph with no
// match is returned unchanged. The result computes the same function.
mugraph::KernelGraph constructThreadGraphs(const mugraph::KernelGraph& graph,
                                           const GpuPreset& preset = defaultGpuPreset());

} // namespace tcx::superopt
