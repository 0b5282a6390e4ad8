#pragma once
// Algorithm 1's generation (Mirage §4.1): one work item (SearchFrontier.h)
// expanded into its children. A kernel-graph prefix is extended by each
// pre-defined operator and queues each operand set a graph-defined operator
// may read; such an operand set yields one partition per expansion, whose
// block graphs are built operator by operator and closed into kernel
// prefixes. Every extension is checked for shape, shared memory, canonical
// form, axes and abstract expression. Safe to call from several workers at
// once. Internal to core/superopt: WorkerPool.h runs it.

#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"
#include "superopt/OperatorSpace.h"
#include "superopt/PartitionCache.h"
#include "superopt/PartitionSpace.h"
#include "superopt/SearchCounters.h"
#include "superopt/SearchFrontier.h"
#include "superopt/SearchStop.h"
#include "superopt/SubexprChecker.h"
#include "superopt/SuperoptSearch.h"
#include "superopt/TargetCoverage.h"

#include <memory>
#include <optional>
#include <vector>

namespace tcx::superopt::detail {

// What one expansion produces; committed to the shared state only when the
// expansion completes, so an expansion cut short by a stop can be redone
// from its work item without counting or emitting anything twice.
struct Expansion {
  std::vector<WorkItem> children;
  std::optional<WorkItem> continuation; // the rest of a partition range
  std::vector<FoundCandidate> found;
  ExpansionCounts counts;
};

struct BlockPrefix; // a block graph under construction
struct Unconsumed;  // the tensors of a kernel prefix no operator reads yet

class SearchGenerator {
public:
  SearchGenerator(const mugraph::KernelGraph& reference, const SearchOptions& options, SearchCounters& counters,
                  StopSignal& stop);

  // The limits of the deepening pass being generated (deepeningLevels).
  void setPassLimits(int kernelOps, int blockOps) {
    kernelOps_ = kernelOps;
    blockOps_ = blockOps;
  }
  int kernelOps() const { return kernelOps_; }
  int blockOps() const { return blockOps_; }

  // The reference's inputs and constants: where each pass starts.
  KernelPrefix initialPrefix() const;
  // A checkpoint's prefix, with the expressions checkpoints leave out.
  std::shared_ptr<const KernelPrefix> restorePrefix(const mugraph::KernelGraph& graph) const;

  // Throws Aborted when the stop signal is raised midway.
  void expand(const WorkItem& item, Expansion& ex);

  SolverStats solverStats() const { return checker_.stats(); }

private:
  void expandKernel(const std::shared_ptr<const KernelPrefix>& prefix, Expansion& ex);
  void expandPending(const std::shared_ptr<const KernelPrefix>& prefix, const PendingGraph& pending, Expansion& ex);
  void appendKernelOp(const KernelPrefix& prefix, mugraph::Operator op, std::vector<ExprRef> exprs, Expansion& ex);
  void extendBlock(const KernelPrefix& kernel, const std::vector<mugraph::TensorRef>& operands, BlockPrefix& block,
                   Expansion& ex);
  void tryBlockOp(const KernelPrefix& kernel, const std::vector<mugraph::TensorRef>& operands,
                  const BlockPrefix& block, mugraph::Operator op, Expansion& ex);
  void closeBlock(const KernelPrefix& kernel, const std::vector<mugraph::TensorRef>& operands,
                  const BlockPrefix& block, Expansion& ex);
  // Whether abstract-expression pruning keeps `e`; counts it if not.
  bool keep(const ExprRef& e, Expansion& ex);
  // Whether a kernel prefix leaving `unconsumed` tensors can still end with
  // only the program's output unconsumed, with `left` operators to append:
  // each consumes at most kernelReduce_ more tensors than it produces.
  bool canFinish(int unconsumed, int left) const { return unconsumed - left * kernelReduce_ <= 1; }
  // Outputs a graph-defined operator reading `operands` may have when
  // appended to a prefix that leaves `u` unconsumed.
  int maxGraphOutputs(const Unconsumed& u, const std::vector<mugraph::TensorRef>& operands) const;

  const mugraph::KernelGraph& reference_;
  const SearchOptions& options_;
  SearchCounters& counters_;
  StopSignal& stop_;
  AxisAnalysis axes_;
  ExprRef target_;
  SubexprChecker checker_;
  TargetCoverage coverage_;
  Vocabulary vocabulary_;
  PartitionLimits limits_;
  PartitionCache partitions_;
  mugraph::TensorDesc output_;
  int maxConsumed_ = 1;  // block level: the most one operator reduces the unconsumed tensors by
  int kernelReduce_ = 1; // kernel level: the same
  int kernelOps_ = 0, blockOps_ = 0;
};

} // namespace tcx::superopt::detail
