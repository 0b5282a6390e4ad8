#include "superopt/SuperoptSearch.h"

#include "mugraph/Canonical.h"
#include "mugraph/Json.h"
#include "mugraph/Validate.h"
#include "superopt/AxisLabels.h"
#include "superopt/CandidateRanking.h"
#include "superopt/OperatorSpace.h"
#include "superopt/PartitionSpace.h"
#include "superopt/SearchFrontier.h"
#include "support/Error.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace tcx::superopt {

using namespace mugraph;

const char* stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Exhausted: return "exhausted";
  case StopReason::TimeLimit: return "time limit";
  case StopReason::StateLimit: return "state limit";
  case StopReason::Cancelled: return "cancelled";
  }
  return "?";
}

namespace {

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

int uses(const OperatorGraph& g, TensorRef t) {
  int n = 0;
  for (const Operator& op : g.ops()) n += static_cast<int>(std::count(op.inputs.begin(), op.inputs.end(), t));
  return n;
}

bool isLeaf(OpType t) { return t == OpType::Input || t == OpType::Constant; }

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

// A block graph under construction.
struct BlockPrefix {
  BlockGraph graph;
  AxisUnifier unifier;
  std::vector<ExprRef> exprs; // of every operator's output
  std::vector<std::optional<TensorLabels>> labels;
  int ops = 0; // besides the input iterators
};

class Engine {
public:
  Engine(const KernelGraph& reference, const SearchOptions& options)
      : reference_(reference), options_(options), axes_(reference),
        target_(exprsOf(reference).at(static_cast<size_t>(reference.outputs().at(0).op))
                    .at(static_cast<size_t>(reference.outputs()[0].output))),
        checker_(target_, options.solver),
        vocabulary_(vocabularyFor(reference, target_, options.abstractPruning)),
        limits_(PartitionLimits::of(options.preset, options.maxGridDims, options.maxForLoopDims)),
        output_(reference.desc(reference.outputs()[0])) {
    // An operator consuming n unconsumed tensors leaves n - 1 (an
    // accumulator: one fewer); this bounds how many a block may still leave.
    for (OpType t : vocabulary_.types) maxConsumed_ = std::max(maxConsumed_, static_cast<int>(numOperands(t)) - 1);
  }

  SearchResult run(const ProgressFn& onProgress, const std::atomic<bool>* cancel);

private:
  KernelPrefix initialPrefix() const;
  std::shared_ptr<const KernelPrefix> restorePrefix(const KernelGraph& graph) const;

  void worker();
  void expand(const WorkItem& item, Expansion& ex);
  void expandKernel(const std::shared_ptr<const KernelPrefix>& prefix, Expansion& ex);
  void expandPending(const std::shared_ptr<const KernelPrefix>& prefix, const PendingGraph& pending, Expansion& ex);
  // The partitions of one operand set, enumerated once for all its items.
  std::shared_ptr<const std::vector<GraphPartition>> partitionsOf(const std::shared_ptr<const KernelPrefix>& prefix,
                                                                  const std::vector<TensorRef>& operands);
  void appendKernelOp(const KernelPrefix& prefix, Operator op, std::vector<ExprRef> exprs, Expansion& ex);
  void extendBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, BlockPrefix& block,
                   Expansion& ex);
  void tryBlockOp(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                  Operator op, Expansion& ex);
  void forEachAccumulator(const BlockPrefix& block, TensorRef x, const std::function<void(Operator)>& emit) const;
  void closeBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                  Expansion& ex);
  bool keep(const ExprRef& e, Expansion& ex) {
    if (!options_.abstractPruning || checker_.isSubexpr(e))
      return true;
    ++ex.pruned;
    ++livePruned_;
    return false;
  }
  // Outputs a graph-defined operator appended to `kernel` may have: all but
  // the program's output must be consumed by the operators left after it.
  int maxGraphOutputs(const KernelPrefix& kernel) const {
    int used = 0;
    for (const Operator& op : kernel.graph.ops()) used += !isLeaf(op.type);
    return (options_.maxKernelOps - used - 1) * options_.maxGraphInputs + 1;
  }
  void checkStop() const {
    if (stop_.load(std::memory_order_relaxed)) throw Aborted{};
  }
  SearchProgress snapshot() const;

  const KernelGraph& reference_;
  const SearchOptions& options_;
  AxisAnalysis axes_;
  ExprRef target_;
  SubexprChecker checker_;
  Vocabulary vocabulary_;
  PartitionLimits limits_;
  TensorDesc output_;
  int maxConsumed_ = 1;

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
  Clock::time_point start_;
  double priorSeconds_ = 0; // from the checkpoint a resumed search started at
};

KernelPrefix Engine::initialPrefix() const {
  KernelPrefix p;
  p.graph = KernelGraph(reference_.name());
  for (const Operator& op : reference_.ops()) {
    if (op.type == OpType::Input) {
      p.graph.input(op.name, op.outputs[0].shape, op.outputs[0].dtype);
      p.exprs.push_back({AbstractExpr::input(op.name)});
    } else if (op.type == OpType::Constant) {
      p.graph.constant(op.value);
      p.exprs.push_back({AbstractExpr::constant(op.value)});
    }
  }
  return p;
}

std::shared_ptr<const KernelPrefix> Engine::restorePrefix(const KernelGraph& graph) const {
  return std::make_shared<const KernelPrefix>(KernelPrefix{graph, exprsOf(graph)});
}

void Engine::expand(const WorkItem& item, Expansion& ex) {
  if (item.pending)
    expandPending(item.prefix, *item.pending, ex);
  else
    expandKernel(item.prefix, ex);
}

void Engine::expandKernel(const std::shared_ptr<const KernelPrefix>& prefix, Expansion& ex) {
  ++ex.explored;
  ++liveExplored_;
  const KernelGraph& g = prefix->graph;
  int used = 0, dead = 0;
  std::vector<TensorRef> all;
  for (int i = 0; i < static_cast<int>(g.ops().size()); ++i) {
    used += !isLeaf(g.op(i).type);
    for (int j = 0; j < static_cast<int>(g.op(i).outputs.size()); ++j) {
      all.push_back({i, j});
      dead += !isLeaf(g.op(i).type) && uses(g, {i, j}) == 0;
    }
  }
  int left = options_.maxKernelOps - used;
  // Every tensor but the output must be consumed, and one operator consumes
  // at most maxGraphInputs of them.
  if (left <= 0 || dead > left * options_.maxGraphInputs + 1) return;

  // Graph-defined operators: operand sets of tensors whose axes are known;
  // each set's partitions become work items.
  AxisAnalysis::Labelled labels = axes_.label(g);
  std::vector<TensorRef> operandsOk;
  for (TensorRef t : all)
    if (g.op(t.op).type != OpType::Constant && labels.of(t)) operandsOk.push_back(t);
  // Canonical form ranks an operator by its largest operand first, so an
  // operand set whose largest tensor comes before the last operator's
  // largest operand cannot follow it: such sets are never queued.
  int floor = -1;
  if (options_.canonicalForm && !g.ops().empty())
    for (TensorRef t : g.ops().back().inputs) floor = std::max(floor, t.op);
  // Larger operand sets first: they fuse more into one kernel.
  std::vector<std::vector<TensorRef>> sets;
  std::vector<TensorRef> chosen;
  std::function<void(size_t)> choose = [&](size_t from) {
    if (!chosen.empty() && chosen.back().op >= floor) sets.push_back(chosen);
    if (static_cast<int>(chosen.size()) == options_.maxGraphInputs) return;
    for (size_t i = from; i < operandsOk.size(); ++i) {
      chosen.push_back(operandsOk[i]);
      choose(i + 1);
      chosen.pop_back();
    }
  };
  choose(0);
  std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  // The partitions are enumerated when the item is first taken, not here:
  // most operand sets of a deep prefix are never reached within a budget.
  for (const std::vector<TensorRef>& set : sets)
    ex.children.push_back({prefix, PendingGraph{set, 0, PendingGraph::kAll}});

  forEachOperator(g, all, vocabulary_, [&](Operator op) {
    checkStop();
    std::vector<ExprRef> in;
    for (TensorRef t : op.inputs) in.push_back(prefix->exprs[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)]);
    std::vector<ExprRef> e = exprsOf(g, op, in);
    if (!keep(e[0], ex)) return;
    appendKernelOp(*prefix, std::move(op), std::move(e), ex);
  });
}

void Engine::appendKernelOp(const KernelPrefix& prefix, Operator op, std::vector<ExprRef> exprs, Expansion& ex) {
  if (options_.canonicalForm && !extendsCanonically(prefix.graph, op)) return;
  auto child = std::make_shared<KernelPrefix>(prefix);
  TensorRef t;
  try {
    t = child->graph.append(std::move(op));
  } catch (const Error&) {
    ++ex.invalid;
    return;
  }
  child->exprs.push_back(std::move(exprs));
  const KernelGraph& g = child->graph;
  // Complete when an output has the reference's output type and nothing
  // else is left unconsumed.
  for (int j = 0; j < static_cast<int>(g.op(t.op).outputs.size()); ++j) {
    TensorRef out{t.op, j};
    if (g.desc(out).shape != output_.shape) continue;
    bool clean = true;
    for (int i = 0; i < static_cast<int>(g.ops().size()) && clean; ++i)
      for (int k = 0; k < static_cast<int>(g.op(i).outputs.size()) && clean; ++k)
        clean = isLeaf(g.op(i).type) || TensorRef{i, k} == out || uses(g, {i, k}) > 0;
    if (!clean) continue;
    KernelGraph candidate = g;
    candidate.markOutput(out);
    ex.found.push_back({std::move(candidate), 0});
  }
  ex.children.push_back({std::move(child), std::nullopt});
}

std::shared_ptr<const std::vector<GraphPartition>>
Engine::partitionsOf(const std::shared_ptr<const KernelPrefix>& prefix, const std::vector<TensorRef>& operands) {
  {
    std::lock_guard lock(partitionsMutex_);
    for (const PartitionCacheEntry& e : partitionCache_)
      if (e.prefix == prefix && e.operands == operands) return e.partitions;
  }
  AxisAnalysis::Labelled labels = axes_.label(prefix->graph);
  std::vector<const TensorLabels*> l;
  for (TensorRef t : operands) l.push_back(&*labels.of(t));
  auto parts = std::make_shared<const std::vector<GraphPartition>>(enumeratePartitions(labels.unifier, l, limits_));
  std::lock_guard lock(partitionsMutex_);
  if (partitionCache_.size() == kPartitionCacheSize) partitionCache_.pop_front();
  partitionCache_.push_back({prefix, operands, parts});
  return parts;
}

void Engine::expandPending(const std::shared_ptr<const KernelPrefix>& prefix, const PendingGraph& pending,
                           Expansion& ex) {
  const KernelGraph& g = prefix->graph;
  std::vector<TensorDesc> descs;
  for (TensorRef t : pending.operands) descs.push_back(g.desc(t));
  std::shared_ptr<const std::vector<GraphPartition>> all = partitionsOf(prefix, pending.operands);
  const std::vector<GraphPartition>& parts = *all;
  // One partition per expansion; the rest of the range is the continuation.
  size_t end = std::min(pending.endPartition, parts.size());
  if (pending.firstPartition + 1 < end)
    ex.continuation = WorkItem{prefix, PendingGraph{pending.operands, pending.firstPartition + 1, end}};
  for (size_t p = pending.firstPartition; p < std::min(pending.firstPartition + 1, end); ++p) {
    checkStop();
    const GraphPartition& part = parts[p];
    BlockPrefix block{BlockGraph(descs, part.grid, part.forLoop), part.unifier, {}, {}, 0};
    bool ok = true;
    for (size_t k = 0; k < pending.operands.size() && ok; ++k) {
      try {
        block.graph.inputIterator(static_cast<int>(k), part.imaps[k], part.fmaps[k]);
      } catch (const Error&) {
        ok = false;
      }
      TensorRef t = pending.operands[k];
      block.exprs.push_back(prefix->exprs[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)]);
      block.labels.push_back(part.chunks[k]);
    }
    if (!ok || sharedMemoryBytes(block.graph) > options_.preset.sharedMemoryPerBlock) {
      ++ex.invalid;
      continue;
    }
    extendBlock(*prefix, pending.operands, block, ex);
  }
}

void Engine::extendBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, BlockPrefix& block,
                         Expansion& ex) {
  checkStop();
  ++ex.explored;
  ++liveExplored_;
  const BlockGraph& g = block.graph;
  int accumulators = 0, unconsumed = 0;
  std::vector<TensorRef> available;
  for (int i = 0; i < static_cast<int>(g.ops().size()); ++i) {
    if (g.op(i).type == OpType::OutputAccumulator) {
      ++accumulators;
      continue;
    }
    available.push_back({i, 0});
    unconsumed += uses(g, {i, 0}) == 0;
  }
  // Algorithm 1 line 18: a block graph closes once all its tensors are consumed.
  if (accumulators > 0 && unconsumed == 0) closeBlock(kernel, operands, block, ex);
  int left = options_.maxBlockOps - block.ops;
  if (left <= 0 || unconsumed > maxConsumed_ * left) return;
  forEachOperator(g, available, vocabulary_, [&](Operator op) { tryBlockOp(kernel, operands, block, std::move(op), ex); });
  // Accumulators: each computed tensor is stored at most once (a loaded
  // chunk stored unchanged, or a tensor stored twice, only copies data), and
  // no more outputs than the kernel graph has operators left to consume.
  if (accumulators >= maxGraphOutputs(kernel)) return;
  for (TensorRef x : available) {
    if (g.op(x.op).type == OpType::InputIterator) continue;
    bool stored = false;
    for (const Operator& op : g.ops()) stored = stored || (op.type == OpType::OutputAccumulator && op.inputs[0] == x);
    if (!stored)
      forEachAccumulator(block, x, [&](Operator op) { tryBlockOp(kernel, operands, block, std::move(op), ex); });
  }
}

// Output maps from the axes (AxisLabels.h): a partition dimension that splits
// an axis x still carries maps to that dimension; one that x does not carry
// was reduced inside the block, so a for-loop accumulates it (φ) and the grid
// lays the partial results out along a free unit dimension.
void Engine::forEachAccumulator(const BlockPrefix& block, TensorRef x,
                                const std::function<void(Operator)>& emit) const {
  const std::optional<TensorLabels>& labels = block.labels[static_cast<size_t>(x.op)];
  if (!labels) return;
  const Shape& shape = block.graph.desc(x).shape;
  auto carriers = [&](unsigned bit) {
    std::vector<int> dims;
    for (size_t d = 0; d < labels->size(); ++d)
      if ((*labels)[d].partitions & (1u << bit)) dims.push_back(static_cast<int>(d));
    return dims;
  };
  std::vector<std::vector<int>> gridChoices;
  for (size_t i = 0; i < block.graph.gridDims().size(); ++i) {
    std::vector<int> dims = carriers(static_cast<unsigned>(i));
    if (dims.empty())
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] == 1 && (*labels)[d].partitions == 0) dims.push_back(static_cast<int>(d));
    gridChoices.push_back(dims);
  }
  DimMap fmap;
  for (size_t i = 0; i < block.graph.forLoopDims().size(); ++i) {
    std::vector<int> dims = carriers(kLoopBit + static_cast<unsigned>(i));
    fmap.push_back(dims.empty() ? kReplica : dims[0]);
  }
  DimMap omap;
  std::function<void(size_t)> choose = [&](size_t i) {
    if (i == gridChoices.size()) {
      Operator op;
      op.type = OpType::OutputAccumulator;
      op.inputs = {x};
      op.omap = omap;
      op.fmap = fmap;
      emit(std::move(op));
      return;
    }
    for (int d : gridChoices[i]) {
      if (std::find(omap.begin(), omap.end(), d) != omap.end()) continue;
      omap.push_back(d);
      choose(i + 1);
      omap.pop_back();
    }
  };
  choose(0);
}

void Engine::tryBlockOp(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                        Operator op, Expansion& ex) {
  checkStop();
  if (options_.canonicalForm && !extendsCanonically(block.graph, op)) return;
  std::vector<ExprRef> in;
  std::vector<const TensorLabels*> inLabels;
  for (TensorRef t : op.inputs) {
    in.push_back(block.exprs[static_cast<size_t>(t.op)]);
    const auto& l = block.labels[static_cast<size_t>(t.op)];
    inLabels.push_back(l ? &*l : nullptr);
  }
  BlockPrefix child = block;
  try {
    child.graph.append(op);
  } catch (const Error&) {
    ++ex.invalid;
    return;
  }
  if (sharedMemoryBytes(child.graph) > options_.preset.sharedMemoryPerBlock) {
    ++ex.invalid;
    return;
  }
  const Operator& added = child.graph.ops().back();
  ExprRef e = exprsOf(child.graph, added, in)[0];
  if (!keep(e, ex)) return;
  child.exprs.push_back(e);
  child.labels.push_back(op.type == OpType::OutputAccumulator
                             ? std::nullopt
                             : propagateLabels(child.unifier, child.graph, added, inLabels));
  ++child.ops;
  extendBlock(kernel, operands, child, ex);
}

void Engine::closeBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands, const BlockPrefix& block,
                        Expansion& ex) {
  Operator op;
  op.type = OpType::GraphDefined;
  op.inputs = operands;
  op.body = std::make_shared<const BlockGraph>(block.graph);
  std::vector<ExprRef> exprs;
  for (int a : block.graph.outputAccumulators()) exprs.push_back(block.exprs[static_cast<size_t>(a)]);
  appendKernelOp(kernel, std::move(op), std::move(exprs), ex);
}

void Engine::worker() {
  for (;;) {
    WorkItem item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty() || busy_ == 0; });
      if (stop_ || queue_.empty()) return;
      item = queue_.pop();
      ++busy_;
    }
    Expansion ex;
    bool done = true;
    try {
      expand(item, ex);
    } catch (const Aborted&) {
      done = false;
    }
    double now = std::chrono::duration<double>(Clock::now() - start_).count() + priorSeconds_;
    std::lock_guard lock(mutex_);
    --busy_;
    liveExplored_ -= ex.explored;
    livePruned_ -= ex.pruned;
    if (!done) {
      aborted_.explored += ex.explored;
      aborted_.pruned += ex.pruned;
      aborted_.invalid += ex.invalid;
    }
    if (done) {
      // The continuation goes below the children, and the children in
      // reverse, so the first child is expanded next.
      if (ex.continuation) queue_.push(std::move(*ex.continuation));
      for (auto it = ex.children.rbegin(); it != ex.children.rend(); ++it) queue_.push(std::move(*it));
      for (FoundCandidate& f : ex.found) {
        f.foundAtSeconds = now;
        found_.push_back(std::move(f));
      }
      committed_.explored += ex.explored;
      committed_.pruned += ex.pruned;
      committed_.invalid += ex.invalid;
    } else {
      queue_.push(std::move(item));
    }
    wake_.notify_all();
  }
}

SearchProgress Engine::snapshot() const {
  std::lock_guard lock(mutex_);
  SearchProgress p = committed_;
  p.explored += liveExplored_;
  p.pruned += livePruned_;
  p.candidates = static_cast<int64_t>(found_.size());
  p.frontier = static_cast<int64_t>(queue_.size()) + busy_;
  p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start_).count() + priorSeconds_;
  return p;
}

SearchResult Engine::run(const ProgressFn& onProgress, const std::atomic<bool>* cancel) {
  SearchResult result;
  result.reference = reference_;
  start_ = Clock::now();
  if (options_.resume) {
    Checkpoint c = loadCheckpoint(options_.checkpointPath);
    TCX_CHECK(c.referenceJson == toJson(reference_), ErrorKind::InvalidArgument,
              "{}: the checkpoint is of another program than '{}'", options_.checkpointPath, reference_.name());
    TCX_CHECK(c.settings == spaceSettings(options_), ErrorKind::InvalidArgument,
              "{}: the checkpoint was taken with other search settings ({}; now {})", options_.checkpointPath,
              c.settings, spaceSettings(options_));
    committed_ = c.progress;
    priorSeconds_ = c.progress.elapsedSeconds;
    found_ = std::move(c.found);
    std::vector<std::shared_ptr<const KernelPrefix>> restored;
    for (WorkItem& item : c.frontier) {
      // Items of one prefix share it, as they did before the checkpoint.
      auto same = std::find_if(restored.begin(), restored.end(),
                               [&](const auto& p) { return p->graph == item.prefix->graph; });
      std::shared_ptr<const KernelPrefix> prefix =
          same != restored.end() ? *same : restored.emplace_back(restorePrefix(item.prefix->graph));
      queue_.push({std::move(prefix), item.pending});
    }
    result.resumed = true;
  } else {
    queue_.push({std::make_shared<const KernelPrefix>(initialPrefix()), std::nullopt});
  }

  unsigned n = options_.threads > 0 ? static_cast<unsigned>(options_.threads)
                                    : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < n; ++i) workers.emplace_back([this] { worker(); });

  result.stop = StopReason::Exhausted;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(100), [&] { return queue_.empty() && busy_ == 0; });
      if (queue_.empty() && busy_ == 0) break;
    }
    SearchProgress p = snapshot();
    if (onProgress) onProgress(p);
    std::optional<StopReason> reason;
    if (cancel && cancel->load()) reason = StopReason::Cancelled;
    if (options_.timeLimitSeconds > 0 && p.elapsedSeconds >= options_.timeLimitSeconds) reason = StopReason::TimeLimit;
    if (options_.stateLimit > 0 && p.explored >= options_.stateLimit) reason = StopReason::StateLimit;
    if (reason) {
      result.stop = *reason;
      std::lock_guard lock(mutex_);
      stop_ = true;
      wake_.notify_all();
      break;
    }
  }
  for (std::thread& t : workers) t.join();

  SearchProgress p = snapshot();
  p.frontier = static_cast<int64_t>(queue_.size());
  if (result.stop != StopReason::Exhausted && !options_.checkpointPath.empty()) {
    Checkpoint c{toJson(reference_), spaceSettings(options_), p, queue_.items(), found_};
    saveCheckpoint(c, options_.checkpointPath);
  }
  p.explored += aborted_.explored;
  p.pruned += aborted_.pruned;
  p.invalid += aborted_.invalid;
  result.solver = checker_.stats();
  rankCandidates(result, found_, options_, p, onProgress);
  result.progress = p;
  return result;
}

} // namespace

SuperoptSearch::SuperoptSearch(KernelGraph reference, SearchOptions options)
    : reference_(std::move(reference)), options_(std::move(options)) {
  TCX_CHECK(reference_.outputs().size() == 1, ErrorKind::Unsupported,
            "superoptimizing '{}': the search handles programs with one output, this one has {}", reference_.name(),
            reference_.outputs().size());
}

SearchResult SuperoptSearch::run(const ProgressFn& onProgress, const std::atomic<bool>* cancel) {
  Engine engine(reference_, options_);
  return engine.run(onProgress, cancel);
}

} // namespace tcx::superopt
