#pragma once
// Small graphs of every data-movement and metadata op with a CUDA form, in
// their variants: index operands that are run-time inputs (or computed from
// them), so that VTC has no mapping function and the op's own form runs,
// and constant ones; inputs that become virtual tensors in the optimised
// plan (a Transpose or Concat in front); scatters in place and not. The
// NVRTC test compiles their plans' CUDA and the GPU test runs them against
// the CPU reference.
//
// Inputs are random (exec/RandomInputs.h: integers in [0, 4)), so graphs
// keep run-time indices in range by the shapes they index (axes of 4 or
// more) or compute them in range from the inputs. Scatters without a
// reduction write distinct positions: the order of duplicate writes is not
// defined on the GPU.

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tcx::test {

struct MovementOpCase {
  std::string name;
  Graph graph;
};

// Every case below, and one graph per op and variant besides.
std::vector<MovementOpCase> movementOpCases();

// A decode step's KV-cache update as the dynamo exporter writes
// `cache.index_put_((..., pos), k)`: index tuples for every element of the
// new key, built at run time from the position `pos` (an i64 input), a
// ScatterND into `cache` [1, 4, 32, 16], then a MatMul of the query with the
// updated cache. Outputs: the updated cache, then the scores.
Graph kvCacheDecodeStep();

// A ScatterND of run-time rows into the graph input `data` [6, 4], which
// nothing else reads: its output may share data's buffer. Output 0 is the
// scatter's result.
Graph inPlaceScatterND();

} // namespace tcx::test
