#pragma once
// The search engine behind SuperoptSearch: its generation of kernel and
// block graphs (Algorithm 1; SearchGenerator.cpp) and its scheduling of that
// work over threads, limits and checkpoints (SuperoptSearch.cpp). Internal
// to core/superopt.

#include "mugraph/MuGraph.h"
#include "superopt/AxisLabels.h"
#include "superopt/OperatorSpace.h"
#include "superopt/PartitionSpace.h"
#include "superopt/SearchFrontier.h"
#include "superopt/SubexprChecker.h"
#include "superopt/SuperoptSearch.h"
#include "superopt/TargetCoverage.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>

namespace tcx::superopt::detail {

using namespace mugraph;

using Clock = std::chrono::steady_clock;


// What one expansion produces; committed to the shared state only when the
// expansion completes, so an expansion cut short by a stop can be redone
// from its work item without counting or emitting anything twice.
struct Expansion {
  std::vector<WorkItem> children;
  std::optional<WorkItem> continuation; // the rest of a partition range
  std::vector<FoundCandidate> found;
  int64_t explored = 0, pruned = 0, invalid = 0;
};


struct Aborted {};

inline int uses(const OperatorGraph& g, TensorRef t) {
  int n = 0;
  for (const Operator& op : g.ops()) n += static_cast<int>(std::count(op.inputs.begin(), op.inputs.end(), t));
  return n;
}

inline bool isLeaf(OpType t) { return t == OpType::Input || t == OpType::Constant; }

// A block graph under construction.
struct BlockPrefix {
  BlockGraph graph;
  AxisUnifier unifier;
  std::vector<ExprRef> exprs; // of every operator's output
  std::vector<std::optional<TensorLabels>> labels;
  int ops = 0;        // besides the input iterators
  int maxOutputs = 0; // accumulators the kernel graph can still consume (Engine::maxGraphOutputs)
};

// The tensors of a kernel prefix no operator reads yet, leaves aside.
struct Unconsumed {
  int kernelOps = 0; // operators besides inputs and constants
  std::vector<TensorRef> tensors;
  int among(const std::vector<TensorRef>& operands) const {
    int n = 0;
    for (TensorRef t : tensors) n += std::find(operands.begin(), operands.end(), t) != operands.end();
    return n;
  }
};
Unconsumed unconsumedOf(const KernelGraph& g);

class Engine {
public:
  Engine(const KernelGraph& reference, const SearchOptions& options)
      : reference_(reference), options_(options), axes_(reference),
        target_(outputExpr(reference)),
        checker_(target_, options.solver),
        coverage_(target_),
        vocabulary_(vocabularyFor(reference, target_, options.abstractPruning)),
        limits_(PartitionLimits::of(options.preset, options.maxGridDims, options.maxForLoopDims)),
        output_(reference.desc(reference.outputs()[0])) {
    // An operator consuming n unconsumed tensors leaves n - 1 (an
    // accumulator: one fewer); this bounds how many a block may still leave.
    for (OpType t : vocabulary_.types) maxConsumed_ = std::max(maxConsumed_, static_cast<int>(numOperands(t)) - 1);
    kernelReduce_ = std::max(maxConsumed_, options.maxGraphInputs - 1);
  }

  SearchResult run(const ProgressFn& onProgress, const std::atomic<bool>* cancel);

private:
  KernelPrefix initialPrefix() const;
  std::shared_ptr<const KernelPrefix> restorePrefix(const KernelGraph& graph) const;

  void worker();
  void expand(const WorkItem& item, Expansion& ex);
  void expandKernel(const std::shared_ptr<const KernelPrefix>& prefix, Expansion& ex);
  void expandPending(const std::shared_ptr<const KernelPrefix>& prefix, const PendingGraph& pending, Expansion& ex);
  // The partitions of one operand set, one per size class, enumerated once
  // for all its items.
  std::shared_ptr<const std::vector<GraphPartition>> partitionsOf(const std::shared_ptr<const KernelPrefix>& prefix,
                                                                  const std::vector<TensorRef>& operands);
  void appendKernelOp(const KernelPrefix& prefix, Operator op, std::vector<ExprRef> exprs, Expansion& ex);
  void extendBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, BlockPrefix& block,
                   Expansion& ex);
  void tryBlockOp(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                  Operator op, Expansion& ex);
  void closeBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                  Expansion& ex);
  bool keep(const ExprRef& e, Expansion& ex) {
    if (!options_.abstractPruning || checker_.isSubexpr(e))
      return true;
    countPruned(ex);
    return false;
  }
  // In the expansion and in the live count, which the worker takes back.
  void countPruned(Expansion& ex) {
    ++ex.pruned;
    ++livePruned_;
  }
  // Whether a kernel prefix leaving `unconsumed` tensors can still end with
  // only the program's output unconsumed, with `left` operators to append:
  // each consumes at most kernelReduce_ more tensors than it produces.
  bool canFinish(int unconsumed, int left) const { return unconsumed - left * kernelReduce_ <= 1; }
  // How a pass ended: its space exhausted, stopped for `reason`, or out of
  // its share of the time limit (the search goes on with the next pass).
  struct PassEnd {
    StopReason reason = StopReason::Exhausted;
    bool outOfShare = false;
  };
  // Runs the workers until the queue is empty, a limit stops them, or the
  // elapsed time reaches `shareEnd`.
  PassEnd drain(const ProgressFn& onProgress, const std::atomic<bool>* cancel, double shareEnd);
  // When the pass at `level` of `levels` yields to the next: once it has
  // used half of the time left, so that a pass whose space is too large for
  // the time limit leaves the deeper ones a turn. Halves, not equal shares:
  // the space grows exponentially with the limits, so the shallower passes
  // are the ones that can finish, and the deeper ones still get some time.
  // Without a time limit, and for the last pass, never.
  double shareEnd(size_t level, size_t levels) const;
  // Outputs a graph-defined operator reading `operands` may have when
  // appended to a prefix that leaves `u` unconsumed.
  int maxGraphOutputs(const Unconsumed& u, const std::vector<TensorRef>& operands) const {
    int left = kernelOps_ - u.kernelOps - 1;
    return 1 + left * kernelReduce_ - (static_cast<int>(u.tensors.size()) - u.among(operands));
  }
  // Throws Aborted once the search is to stop: told so, or past its state
  // limit. The limit is checked here, as the counts grow, so that an
  // expansion deep in a large block space stops on it too, and a one-thread
  // search stops at the same prefix every run.
  void checkStop() {
    if (options_.stateLimit > 0 && committedExplored_.load(std::memory_order_relaxed) +
                                           liveExplored_.load(std::memory_order_relaxed) >=
                                       options_.stateLimit)
      stop_ = true;
    if (stop_.load(std::memory_order_relaxed)) throw Aborted{};
  }
  SearchProgress snapshot() const;

  const KernelGraph& reference_;
  const SearchOptions& options_;
  AxisAnalysis axes_;
  ExprRef target_;
  SubexprChecker checker_;
  TargetCoverage coverage_;
  Vocabulary vocabulary_;
  PartitionLimits limits_;
  TensorDesc output_;
  int maxConsumed_ = 1;  // block level: the most one operator reduces the unconsumed tensors by
  int kernelReduce_ = 1; // kernel level: the same
  int kernelOps_ = 0, blockOps_ = 0; // the limits of the current pass (deepeningLevels)

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  WorkQueue queue_;
  int busy_ = 0;
  std::atomic<bool> stop_{false};
  SearchProgress committed_;
  // Counts of expansions still running, for progress reports only: an
  // expansion adds to them as it goes and takes its counts back when it
  // commits or aborts, so checkpoints hold committed counts alone.
  std::atomic<int64_t> liveExplored_{0}, livePruned_{0};
  std::atomic<int64_t> committedExplored_{0}; // committed_.explored, read without the mutex
  // Work of expansions a stop cut short: done in this run and reported, but
  // not in the checkpoint, since a resumed search does it again.
  SearchProgress aborted_;

  struct PartitionCacheEntry {
    std::shared_ptr<const KernelPrefix> prefix;
    std::vector<TensorRef> operands;
    std::shared_ptr<const std::vector<GraphPartition>> partitions;
  };
  static constexpr size_t kPartitionCacheSize = 64;
  std::mutex partitionsMutex_;
  std::deque<PartitionCacheEntry> partitionCache_;
  std::vector<FoundCandidate> found_;
  std::set<uint64_t> foundHashes_; // a deeper pass finds its predecessors' candidates again
  Clock::time_point start_;
  double priorSeconds_ = 0; // from the checkpoint a resumed search started at
};

} // namespace tcx::superopt::detail
