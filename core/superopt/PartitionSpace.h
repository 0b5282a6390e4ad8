#pragma once
// The partitions a graph-defined operator may use (Mirage Algorithm 1,
// line 14: "for all gridDims; forloopDims"), derived from the operands' axes
// (AxisLabels.h) and the GPU preset rather than from a fixed list.
//
// A grid or for-loop dimension splits one axis into a power-of-two number of
// parts (or one part per index); the operands indexed by that axis map the
// dimension carrying it, the others replicate. Limits keep the space finite
// and sensible: at most `maxBlocks` blocks (eight waves on the preset's
// SMs), and a split axis leaves tiles of at least kMinTile elements, the
// tensor cores' fragment edge, unless it leaves one index per part.

#include "cost/GpuPreset.h"
#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"

#include <vector>

namespace tcx::superopt {

inline constexpr int64_t kMinTile = 16;

struct PartitionLimits {
  int maxGridDims = 2;
  int maxForLoopDims = 1;
  int64_t maxBlocks = 1024;
  int smCount = 132; // partitions are ordered by how well their grid fills this many SMs
  static PartitionLimits of(const GpuPreset& preset, int maxGridDims, int maxForLoopDims);
};

// One way to partition a graph-defined operator's operands.
struct GraphPartition {
  Shape grid, forLoop;
  std::vector<mugraph::DimMap> imaps, fmaps; // one per operand
  std::vector<TensorLabels> chunks;          // the labels of each operand's chunk in the block graph
  AxisUnifier unifier;                       // with the split axes recorded
};

// Ordered by the elements they load from device memory (a replicated
// operand is loaded by every block), then by how close the grid is to one
// wave on the preset's SMs, then by for-loop iterations: the search is
// exhaustive either way, but depth first it reaches the partitions fast
// kernels use sooner.
std::vector<GraphPartition> enumeratePartitions(const AxisUnifier& unifier,
                                                const std::vector<const TensorLabels*>& operands,
                                                const PartitionLimits& limits);

} // namespace tcx::superopt
