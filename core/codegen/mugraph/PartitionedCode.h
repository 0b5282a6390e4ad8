#pragma once
// The code of a graph-defined operator's body (Mirage §2). A block graph
// becomes the body of one kernel: the grid indices are blockIdx, the block
// runs the for-loop itself, every tensor lives in shared memory and the
// block's threads share each operator's loop, with a barrier between
// operators. A thread graph inside it becomes a loop in which each thread
// runs the whole graph for its own thread index, every tensor in registers.

#include "codegen/mugraph/ElementCode.h"
#include "mugraph/MuGraph.h"

namespace tcx::mugraphcuda {

// The threads of a block-graph kernel. Generated loops stride by it as a
// literal rather than by blockDim, so that the compiler knows the stride and
// can unroll and pipeline the copies; the kernel must be launched with it.
inline constexpr unsigned kBlockThreads = 256;

// Tensors of the parent graph: where they live and their shapes.
struct ParentTensors {
  std::vector<Slot> slots;
  std::vector<Shape> shapes;
};

struct BlockKernelBody {
  std::string code;        // statements of the kernel body
  int64_t sharedBytes = 0; // the dynamic shared memory it uses
};

// `inputs` are the operator's operands (device buffers or literals),
// `outputs` its outputs (device buffers), in order.
BlockKernelBody emitBlockGraph(const mugraph::PartitionedGraph& body, const ParentTensors& inputs,
                               const ParentTensors& outputs);

} // namespace tcx::mugraphcuda
