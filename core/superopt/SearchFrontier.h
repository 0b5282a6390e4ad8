#pragma once
// The search's unit of work and what a checkpoint holds. A work item is a
// kernel-graph prefix to extend, or a prefix plus a graph-defined operator's
// operands and a range of their partitions (PartitionSpace.h, which
// enumerates them deterministically) whose block graphs are still to be
// generated. Items are small and self-contained, so the frontier can be
// written to a file and read back.

#include "mugraph/Canonical.h"
#include "mugraph/MuGraph.h"
#include "superopt/AbstractExpr.h"
#include "superopt/SuperoptSearch.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tcx::superopt {

struct KernelPrefix {
  mugraph::KernelGraph graph;
  std::vector<std::vector<ExprRef>> exprs; // of every operator's outputs
};

struct PendingGraph {
  static constexpr size_t kAll = SIZE_MAX; // every partition from firstPartition on
  std::vector<mugraph::TensorRef> operands;
  size_t firstPartition = 0, endPartition = kAll;
};

struct WorkItem {
  std::shared_ptr<const KernelPrefix> prefix;
  std::optional<PendingGraph> pending;
};

// The frontier: a stack, so the search is depth first and its memory stays
// proportional to the depth, as in Mirage's recursion. A kernel graph that a
// block graph completes (a candidate included) is therefore extended at
// once, before the next partition of the same operands. An operand set is
// one item that yields its partitions one at a time (in the order
// PartitionSpace.h ranks them), its remainder staying below its children.
class WorkQueue {
public:
  void push(WorkItem item) { items_.push_back(std::move(item)); }
  WorkItem pop() {
    WorkItem item = std::move(items_.back());
    items_.pop_back();
    return item;
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const std::vector<WorkItem>& items() const { return items_; }

private:
  std::vector<WorkItem> items_;
};

struct FoundCandidate {
  mugraph::KernelGraph graph;
  double foundAtSeconds = 0;
};

// The complete μGraphs found, each once, in the order found: a deeper pass
// of iterative deepening finds its predecessors' candidates again.
class FoundCandidates {
public:
  // False, and `f` dropped, if the same graph was found before.
  bool add(FoundCandidate f) {
    if (!hashes_.insert(mugraph::stableHash(f.graph)).second) return false;
    found_.push_back(std::move(f));
    return true;
  }
  const std::vector<FoundCandidate>& all() const { return found_; }
  size_t size() const { return found_.size(); }

private:
  std::vector<FoundCandidate> found_;
  std::set<uint64_t> hashes_;
};

struct Checkpoint {
  std::string referenceJson; // the program searched; a resume must search the same one
  std::string settings;      // the options that shape the space; a resume must match them
  SearchProgress progress;
  size_t level = 0; // the pass of iterative deepening the frontier belongs to
  std::vector<WorkItem> frontier;
  std::vector<FoundCandidate> found;
};

// Atomic write; Io on failure.
void saveCheckpoint(const Checkpoint& checkpoint, const std::string& path);
// Io if unreadable, InvalidArgument naming the file if it is not a checkpoint.
Checkpoint loadCheckpoint(const std::string& path);

} // namespace tcx::superopt
