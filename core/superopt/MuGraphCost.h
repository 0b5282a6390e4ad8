#pragma once
// The cost model for μGraphs: an estimated latency on a GPU preset, used to
// rank the candidates a search finds (GPU profiling replaces it when a device
// is present). Every kernel-level operator is one kernel launch; a
// graph-defined operator costs what its blocks move between device and
// shared memory and what they compute, in waves over the SMs; pre-defined
// operators stream their operands and results through device memory. A
// kernel takes at least its serial path: the chain of steps one thread of
// the generated code runs one after another (MuGraphCost.cpp).

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"

#include <string>
#include <vector>

namespace tcx::superopt {

struct KernelCost {
  int op = 0;          // the kernel-level operator
  std::string what;    // "graph-defined 64x2 blocks x 16 iterations", "Matmul"
  double micros = 0;   // estimated time of this kernel
  double deviceBytes = 0; // bytes read and written in device memory
  double flops = 0;
  const char* bound = "memory"; // "memory", "compute", "serial" (MuGraphCost.cpp), "launch"
};

struct MuGraphCost {
  double micros = 0; // the sum of the kernels'
  std::vector<KernelCost> kernels;
};

// The kernel-level operators that launch a kernel: all but inputs,
// constants and Reshape (a view), as the estimate counts them.
struct KernelCount {
  int launches = 0;
  int graphDefined = 0; // of them
};
KernelCount countKernels(const mugraph::KernelGraph& graph);

MuGraphCost estimateCost(const mugraph::KernelGraph& graph, const GpuPreset& preset = defaultGpuPreset());

} // namespace tcx::superopt
