#pragma once
// The partitions of a graph-defined operator's operand set (PartitionSpace.h),
// enumerated once for all the work items of that set: an operand set is one
// item that yields a partition per expansion, its remainder going back on the
// queue, so without the cache each of its partitions would enumerate them all
// again. Shared by the workers; the most recent sets are kept, since the
// queue is depth first and returns to a set soon or not for a long time.
// Internal to core/superopt.

#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"
#include "superopt/PartitionSpace.h"
#include "superopt/SearchFrontier.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace tcx::superopt::detail {

class PartitionCache {
public:
  PartitionCache(const AxisAnalysis& axes, const PartitionLimits& limits) : axes_(axes), limits_(limits) {}

  // One partition per size class (sizeClassRepresentatives) of `operands`
  // of `prefix`, computed on the first call for that pair.
  std::shared_ptr<const std::vector<GraphPartition>> of(const std::shared_ptr<const KernelPrefix>& prefix,
                                                        const std::vector<mugraph::TensorRef>& operands);

private:
  struct Entry {
    std::shared_ptr<const KernelPrefix> prefix;
    std::vector<mugraph::TensorRef> operands;
    std::shared_ptr<const std::vector<GraphPartition>> partitions;
  };
  static constexpr size_t kSize = 64;

  const AxisAnalysis& axes_;
  const PartitionLimits& limits_;
  std::mutex mutex_;
  std::deque<Entry> entries_;
};

} // namespace tcx::superopt::detail
