#pragma once
// μGraphs on the GPU, so that the superoptimizer can rank its candidates by
// measurement: each μGraph's CUDA (codegen/mugraph/MuGraphCuda.h) compiled
// with NVRTC, timed with CUPTI as plans are (the L2 cache flushed before
// every repetition), and checked against the float interpreter. Nothing here
// names a CUDA type; without a device, or in a build without the toolkit
// (MuGraphProfilerUnavailable.cpp), every entry raises Unsupported with the
// reason, as GpuBackend.h's do.

#include "mugraph/MuGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcx::backend {

struct MuGraphMeasureOptions {
  int warmup = 3;
  int repetitions = 20;
  bool flushL2 = true;
  uint64_t seed = 1; // of the random inputs, uniform in [-1, 1)
};

struct MuGraphLaunchTime {
  std::string entry; // the kernel (MuGraphLaunch::entry)
  double medianUs = 0;
};

struct MuGraphMeasurement {
  // The whole program, first kernel's start to last kernel's end: the median
  // over the repetitions.
  double medianUs = 0;
  std::vector<MuGraphLaunchTime> launches; // in launch order
  std::string timingSource;                // "cupti" or "cudaEvent"
  std::string device;                      // the GPU, clocks, driver and runtime
  double compileMs = 0;
};

// Compiles `graph` for the device and times it on random inputs.
MuGraphMeasurement measureMuGraph(const mugraph::KernelGraph& graph, const MuGraphMeasureOptions& options);

struct MuGraphCheck {
  // Per output, the largest |gpu - reference| over the largest |reference|:
  // relative to the output's scale, since elementwise relative error is
  // meaningless where the reference is near zero. Infinite where the GPU
  // gave a NaN or infinity (an element no kernel wrote reads as NaN).
  std::vector<double> outputErrors;
  double maxRelativeError = 0;
};

// Runs `graph` on random inputs (rounded to their dtypes) and compares each
// output with mugraph's float interpreter on the same inputs.
MuGraphCheck checkMuGraph(const mugraph::KernelGraph& graph, const MuGraphMeasureOptions& options);

} // namespace tcx::backend
