#pragma once
// CUDA for a μGraph, so that candidates of the superoptimizer can be timed
// on a GPU and the best one exported. The code follows the μGraph's
// structure exactly, not a tuned schedule: one kernel per kernel-level
// operator (one thread per output element for the pre-defined ones; one
// thread block per grid index of the block graph for graph-defined ones,
// its tensors in shared memory), so the number of kernels and the bytes
// they move are the μGraph's own and timings rank structures fairly.
//
// Every kernel takes one argument, the device addresses of all buffers
// (`struct Buffers { void* p[n]; }`), as codegen/GeneratedPlan.h's do.

#include "mugraph/MuGraph.h"

#include <array>
#include <string>
#include <vector>

namespace tcx {

// One device buffer per kernel-level tensor that needs memory: Constants are
// literals in the code, and a Reshape views its operand's buffer.
struct MuGraphBuffer {
  enum class Role { Input, Intermediate, Output };
  Role role = Role::Intermediate;
  mugraph::TensorRef tensor; // the kernel-level tensor that defines it
  mugraph::TensorDesc desc;
  int64_t bytes = 0;
};

struct MuGraphLaunch {
  int op = 0;        // the kernel-level operator it computes
  std::string entry; // extern "C" kernel name
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  unsigned sharedBytes = 0;       // dynamic shared memory
  std::vector<int> reads, writes; // buffer indices
};

struct MuGraphCuda {
  std::string source; // one translation unit, for NVRTC (sm_90)
  std::vector<MuGraphBuffer> buffers;
  std::vector<MuGraphLaunch> launches; // in program order
  std::vector<int> inputBuffers;       // per KernelGraph::inputOps(), in order
  std::vector<int> outputBuffers;      // per KernelGraph::outputs(), in order
};

// The largest dynamic shared memory an H100 block may opt in to.
inline constexpr int64_t kMaxSharedBytesPerBlock = 227 * 1024;

// Raises Unsupported for what the code cannot express: dtypes other than
// f32/f16/bf16, a block graph needing more than kMaxSharedBytesPerBlock of
// shared memory, tensors of 2^31 elements or more, a Constant as a program
// output.
MuGraphCuda generateMuGraphCuda(const mugraph::KernelGraph& graph);

} // namespace tcx
