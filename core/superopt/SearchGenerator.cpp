// Algorithm 1's generation: kernel-graph prefixes extended by pre-defined
// and graph-defined operators, and block graphs extended operator by
// operator, each extension checked for shape, memory, canonical form and
// abstract expression.
#include "superopt/SearchGenerator.h"

#include "mugraph/Canonical.h"
#include "mugraph/LoopPhase.h"
#include "mugraph/Validate.h"
#include "superopt/ExprSignature.h"
#include "support/Error.h"

#include <algorithm>
#include <functional>

namespace tcx::superopt::detail {

using mugraph::BlockGraph;
using mugraph::KernelGraph;
using mugraph::Operator;
using mugraph::OperatorGraph;
using mugraph::OpType;
using mugraph::TensorDesc;
using mugraph::TensorRef;

struct BlockPrefix {
  BlockGraph graph;
  AxisUnifier unifier;
  std::vector<ExprRef> exprs; // of every operator's output
  std::vector<std::optional<TensorLabels>> labels;
  int ops = 0;        // besides the input iterators
  int maxOutputs = 0; // accumulators the kernel graph can still consume (maxGraphOutputs)
};

struct Unconsumed {
  int kernelOps = 0; // operators besides inputs and constants
  std::vector<TensorRef> tensors;
  int among(const std::vector<TensorRef>& operands) const {
    int n = 0;
    for (TensorRef t : tensors) n += std::find(operands.begin(), operands.end(), t) != operands.end();
    return n;
  }
};

namespace {

int uses(const OperatorGraph& g, TensorRef t) {
  int n = 0;
  for (const Operator& op : g.ops()) n += static_cast<int>(std::count(op.inputs.begin(), op.inputs.end(), t));
  return n;
}

bool isLeaf(OpType t) { return t == OpType::Input || t == OpType::Constant; }

// The tensors of a kernel prefix no operator reads yet, leaves aside.
Unconsumed unconsumedOf(const KernelGraph& g) {
  Unconsumed u;
  for (int i = 0; i < static_cast<int>(g.ops().size()); ++i) {
    if (isLeaf(g.op(i).type)) continue;
    ++u.kernelOps;
    for (int j = 0; j < static_cast<int>(g.op(i).outputs.size()); ++j)
      if (uses(g, {i, j}) == 0) u.tensors.push_back({i, j});
  }
  return u;
}

// Whether `op` may extend a block graph with for-loop accumulations, checked
// before appending, where a phase conflict would raise: most operand pairs of
// such a block mix phases. After the loop the search appends element-wise
// operators only, the epilogue Mirage's RMSNorm form needs: a reduction or a
// matmul there would run on the accumulated tile alone, which the next
// kernel does as well, and would open a space as large as the loop body's.
bool fitsLoopPhases(const BlockGraph& g, const Operator& op) {
  if (std::ranges::none_of(g.ops(), [](const Operator& o) { return isForLoopAccumulation(o.type); })) return true;
  std::vector<mugraph::LoopPhase> phases = loopPhases(g), operands;
  for (TensorRef t : op.inputs) operands.push_back(phases[static_cast<size_t>(t.op)]);
  if (phaseConflict(op, operands)) return false;
  bool after = std::ranges::find(operands, mugraph::LoopPhase::After) != operands.end();
  return !after || isElementwise(op.type) || op.type == OpType::OutputAccumulator;
}

} // namespace

SearchGenerator::SearchGenerator(const KernelGraph& reference, const SearchOptions& options,
                                 SearchCounters& counters, StopSignal& stop)
    : reference_(reference), options_(options), counters_(counters), stop_(stop), axes_(reference),
      target_(outputExpr(reference)), checker_(target_, options.solver), coverage_(target_),
      vocabulary_(vocabularyFor(reference, target_, options.abstractPruning)),
      limits_(PartitionLimits::of(options.preset, options.maxGridDims, options.maxForLoopDims)),
      partitions_(axes_, limits_), output_(reference.desc(reference.outputs()[0])) {
  // An operator consuming n unconsumed tensors leaves n - 1 (an
  // accumulator: one fewer); this bounds how many a block may still leave.
  for (OpType t : vocabulary_.types) maxConsumed_ = std::max(maxConsumed_, static_cast<int>(numOperands(t)) - 1);
  kernelReduce_ = std::max(maxConsumed_, options.maxGraphInputs - 1);
}

bool SearchGenerator::keep(const ExprRef& e, Expansion& ex) {
  if (!options_.abstractPruning || checker_.isSubexpr(e)) return true;
  counters_.countPruned(ex.counts);
  return false;
}

int SearchGenerator::maxGraphOutputs(const Unconsumed& u, const std::vector<TensorRef>& operands) const {
  int left = kernelOps_ - u.kernelOps - 1;
  return 1 + left * kernelReduce_ - (static_cast<int>(u.tensors.size()) - u.among(operands));
}

KernelPrefix SearchGenerator::initialPrefix() const {
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

std::shared_ptr<const KernelPrefix> SearchGenerator::restorePrefix(const KernelGraph& graph) const {
  return std::make_shared<const KernelPrefix>(KernelPrefix{graph, exprsOf(graph)});
}

void SearchGenerator::expand(const WorkItem& item, Expansion& ex) {
  if (item.pending)
    expandPending(item.prefix, *item.pending, ex);
  else
    expandKernel(item.prefix, ex);
}

void SearchGenerator::expandKernel(const std::shared_ptr<const KernelPrefix>& prefix, Expansion& ex) {
  counters_.countExplored(ex.counts);
  const KernelGraph& g = prefix->graph;
  std::vector<TensorRef> all;
  for (int i = 0; i < static_cast<int>(g.ops().size()); ++i)
    for (int j = 0; j < static_cast<int>(g.op(i).outputs.size()); ++j) all.push_back({i, j});
  // Every tensor but the output must be consumed in the end.
  const Unconsumed dead = unconsumedOf(g);
  const int left = kernelOps_ - dead.kernelOps;
  const int unconsumed = static_cast<int>(dead.tensors.size());
  if (left <= 0 || !canFinish(unconsumed, left)) return;
  AxisAnalysis::Labelled labels = axes_.label(g);
  if (labels.unifier.conflicted()) { // its last operator pairs axes the reference keeps apart
    ++ex.counts.invalid;
    return;
  }

  // Graph-defined operators: operand sets of tensors whose axes are known
  // (graphDefinedOperands); each set's partitions become work items.
  const std::vector<TensorRef> operandsOk =
      graphDefinedOperands(g, prefix->exprs, labels, options_.abstractPruning ? &coverage_ : nullptr);
  // Canonical form ranks an operator by its largest operand first, so an
  // operand set whose largest tensor comes before the last operator's
  // largest operand cannot follow it: such sets are never queued.
  int floor = -1;
  if (options_.canonicalForm && !g.ops().empty())
    for (TensorRef t : g.ops().back().inputs) floor = std::max(floor, t.op);
  // Larger operand sets first: they fuse more into one kernel.
  std::vector<std::vector<TensorRef>> sets;
  std::vector<TensorRef> chosen;
  // A graph-defined operator leaves at least one output unconsumed.
  std::function<void(size_t)> choose = [&](size_t from) {
    if (!chosen.empty() && chosen.back().op >= floor && canFinish(unconsumed - dead.among(chosen) + 1, left - 1))
      sets.push_back(chosen);
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
    stop_.check();
    std::vector<TensorRef> operands = op.inputs;
    std::sort(operands.begin(), operands.end());
    operands.erase(std::unique(operands.begin(), operands.end()), operands.end());
    if (!canFinish(unconsumed - dead.among(operands) + 1, left - 1)) return;
    std::vector<ExprRef> in;
    for (TensorRef t : op.inputs) in.push_back(prefix->exprs[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)]);
    std::vector<ExprRef> e = exprsOf(g, op, in);
    if (!keep(e[0], ex)) return;
    appendKernelOp(*prefix, std::move(op), std::move(e), ex);
  });
}

void SearchGenerator::appendKernelOp(const KernelPrefix& prefix, Operator op, std::vector<ExprRef> exprs,
                                     Expansion& ex) {
  if (options_.canonicalForm && !extendsCanonically(prefix.graph, op)) return;
  auto child = std::make_shared<KernelPrefix>(prefix);
  TensorRef t;
  try {
    t = child->graph.append(std::move(op));
  } catch (const Error&) {
    ++ex.counts.invalid;
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
    // Pruning kept its expression a subexpression of the reference's; a
    // complete program must also contain the reference's, or it computes
    // only part of it (attention without its division).
    if (options_.abstractPruning && !ExprSignature(child->exprs.back()[static_cast<size_t>(j)]).admits(target_)) {
      counters_.countPruned(ex.counts);
      continue;
    }
    AxisAnalysis::Labelled labels = axes_.label(g);
    if (labels.unifier.conflicted() || !axes_.indexesOutputAxes(labels, out)) {
      ++ex.counts.invalid;
      continue;
    }
    KernelGraph candidate = g;
    candidate.markOutput(out);
    ex.found.push_back({std::move(candidate), 0});
  }
  ex.children.push_back({std::move(child), std::nullopt});
}

void SearchGenerator::expandPending(const std::shared_ptr<const KernelPrefix>& prefix,
                                    const PendingGraph& pending, Expansion& ex) {
  const KernelGraph& g = prefix->graph;
  std::vector<TensorDesc> descs;
  for (TensorRef t : pending.operands) descs.push_back(g.desc(t));
  const int maxOutputs = maxGraphOutputs(unconsumedOf(g), pending.operands);
  std::shared_ptr<const std::vector<GraphPartition>> all = partitions_.of(prefix, pending.operands);
  const std::vector<GraphPartition>& parts = *all;
  // One partition per expansion; the rest of the range is the continuation.
  size_t end = std::min(pending.endPartition, parts.size());
  if (pending.firstPartition + 1 < end)
    ex.continuation = WorkItem{prefix, PendingGraph{pending.operands, pending.firstPartition + 1, end}};
  for (size_t p = pending.firstPartition; p < std::min(pending.firstPartition + 1, end); ++p) {
    stop_.check();
    const GraphPartition& part = parts[p];
    BlockPrefix block{partitionInputs(descs, part), part.unifier, {}, {}, 0, maxOutputs};
    for (size_t k = 0; k < pending.operands.size(); ++k) {
      TensorRef t = pending.operands[k];
      block.exprs.push_back(prefix->exprs[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)]);
      block.labels.push_back(part.chunks[k]);
    }
    if (sharedMemoryBytes(block.graph) > options_.preset.sharedMemoryPerBlock) {
      ++ex.counts.invalid;
      continue;
    }
    extendBlock(*prefix, pending.operands, block, ex);
  }
  // Every child closes a block graph of this partition (TargetCoverage.h).
  std::vector<std::pair<Coverage, WorkItem>> scored;
  for (WorkItem& child : ex.children) scored.emplace_back(coverage_.of(child.prefix->exprs.back()), std::move(child));
  std::ranges::stable_sort(scored, std::ranges::greater{}, &std::pair<Coverage, WorkItem>::first);
  for (size_t i = 0; i < scored.size(); ++i) ex.children[i] = std::move(scored[i].second);
}

void SearchGenerator::extendBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands,
                                  BlockPrefix& block, Expansion& ex) {
  stop_.check();
  counters_.countExplored(ex.counts);
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
  int left = blockOps_ - block.ops;
  if (left <= 0 || unconsumed > maxConsumed_ * left) return;
  forEachOperator(g, available, vocabulary_,
                  [&](Operator op) { tryBlockOp(kernel, operands, block, std::move(op), ex); });
  // Accumulators: each computed tensor is stored at most once (a loaded
  // chunk stored unchanged, or a tensor stored twice, only copies data; a
  // ForLoopSum stored is what an accumulator with fmap φ does alone), and
  // no more outputs than the kernel graph has operators left to consume.
  if (accumulators >= block.maxOutputs) return;
  for (TensorRef x : available) {
    if (g.op(x.op).type == OpType::InputIterator || g.op(x.op).type == OpType::ForLoopSum) continue;
    bool stored = false;
    for (const Operator& op : g.ops()) stored = stored || (op.type == OpType::OutputAccumulator && op.inputs[0] == x);
    const std::optional<TensorLabels>& labels = block.labels[static_cast<size_t>(x.op)];
    if (!stored && labels)
      forEachAccumulator(g, x, *labels, [&](Operator op) { tryBlockOp(kernel, operands, block, std::move(op), ex); });
  }
}

void SearchGenerator::tryBlockOp(const KernelPrefix& kernel, const std::vector<TensorRef>& operands,
                                 const BlockPrefix& block, Operator op, Expansion& ex) {
  stop_.check();
  if (options_.canonicalForm && !extendsCanonically(block.graph, op)) return;
  std::vector<ExprRef> in;
  std::vector<const TensorLabels*> inLabels;
  for (TensorRef t : op.inputs) {
    in.push_back(block.exprs[static_cast<size_t>(t.op)]);
    const auto& l = block.labels[static_cast<size_t>(t.op)];
    inLabels.push_back(l ? &*l : nullptr);
  }
  if (!fitsLoopPhases(block.graph, op)) {
    ++ex.counts.invalid;
    return;
  }
  BlockPrefix child = block;
  try {
    child.graph.append(op);
  } catch (const Error&) {
    ++ex.counts.invalid;
    return;
  }
  if (sharedMemoryBytes(child.graph) > options_.preset.sharedMemoryPerBlock) {
    ++ex.counts.invalid;
    return;
  }
  const Operator& added = child.graph.ops().back();
  ExprRef e = exprsOf(child.graph, added, in)[0];
  if (!keep(e, ex)) return;
  child.exprs.push_back(e);
  child.labels.push_back(op.type == OpType::OutputAccumulator
                             ? std::nullopt
                             : propagateLabels(child.unifier, child.graph, added, inLabels));
  if (child.unifier.conflicted()) { // pairs axes the reference keeps apart
    ++ex.counts.invalid;
    return;
  }
  ++child.ops;
  extendBlock(kernel, operands, child, ex);
}

void SearchGenerator::closeBlock(const KernelPrefix& kernel, const std::vector<TensorRef>& operands,
                                 const BlockPrefix& block, Expansion& ex) {
  Operator op;
  op.type = OpType::GraphDefined;
  op.inputs = operands;
  op.body = std::make_shared<const BlockGraph>(block.graph);
  std::vector<ExprRef> exprs;
  for (int a : block.graph.outputAccumulators()) exprs.push_back(block.exprs[static_cast<size_t>(a)]);
  appendKernelOp(kernel, std::move(op), std::move(exprs), ex);
}

} // namespace tcx::superopt::detail
