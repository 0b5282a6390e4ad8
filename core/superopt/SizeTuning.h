#pragma once
// Grid and for-loop sizes for a μGraph the search found. The search explores
// one partition per size class (PartitionSpace.h); here every combination of
// sizes its graph-defined operators' classes allow is rebuilt operator by
// operator, checked for shape and shared memory like any extension, and
// estimated by the cost model. Mirage enumerates the sizes inside the search
// instead, which multiplies its space by the number of sizes per operator.

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"
#include "superopt/Deadline.h"
#include "superopt/PartitionSpace.h"

namespace tcx::superopt {

struct SizeTuning {
  mugraph::KernelGraph graph; // the cheapest variant; the input itself if none is cheaper
  double estimatedMicros = 0;
  int variants = 0; // combinations that built, the input included
  bool cut = false;  // the deadline passed before every combination was tried: the best of those that were
};

// Combinations are tried in the partitions' order until `deadline`, at most
// `maxVariants` of them.
SizeTuning tuneSizes(const mugraph::KernelGraph& graph, const AxisAnalysis& axes, const PartitionLimits& limits,
                     const GpuPreset& preset, const Deadline& deadline = {}, int maxVariants = 256);

} // namespace tcx::superopt
