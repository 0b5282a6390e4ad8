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

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"

#include <string>
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

// The block graph a partition starts from: one input iterator per operand,
// in order. Raises ShapeInference where a map does not fit.
mugraph::BlockGraph partitionInputs(const std::vector<mugraph::TensorDesc>& operands, const GraphPartition& partition);

// Partitions of one size class differ only in how many parts their grid and
// for-loop dimensions have: the same imaps and fmaps, and the same unit
// dimensions in every chunk. They admit the same block graphs, whose
// abstract expressions differ only in sum sizes, so the search explores one
// partition per class and SizeTuning.h chooses the sizes of what it finds.
// This key names the class of a block graph's input iterators.
std::string sizeClass(const mugraph::PartitionedGraph& graph);

// One partition per size class, in the order of each class's first member in
// `ranked`. The representative is the member with the smallest chunks: any
// block graph another member's shared memory holds, it holds too.
std::vector<GraphPartition> sizeClassRepresentatives(std::vector<GraphPartition> ranked,
                                                     const std::vector<mugraph::TensorDesc>& operands);

} // namespace tcx::superopt
