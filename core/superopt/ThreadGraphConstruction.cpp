#include "superopt/ThreadGraphConstruction.h"

#include "mugraph/Validate.h"

#include <algorithm>
#include <map>

namespace tcx::superopt {

using namespace mugraph;

namespace {

// Threads per thread block: enough to spread a row over a warp or four, few
// enough to leave registers for the slice each thread holds.
constexpr int64_t kMaxThreads = 128;

using Renaming = std::map<TensorRef, TensorRef>;

// Without broadcasting, a thread reads exactly the slice of each operand
// that it writes, so one partition serves the whole match.
bool fusable(const OperatorGraph& g, const Operator& op) {
  if (!isElementwise(op.type)) return false;
  return std::ranges::all_of(op.inputs, [&](TensorRef t) { return g.desc(t).shape == op.outputs[0].shape; });
}

// For every block operator, the last operator of the match it belongs to
// (-1 outside any match). A fusable operator joins its consumer's match when
// its result has exactly one use and that use is fusable; matches are found
// from the end, so each is maximal.
std::vector<int> matchRoots(const PartitionedGraph& block) {
  size_t n = block.ops().size();
  std::vector<int> uses(n, 0), user(n, -1), root(n, -1);
  for (size_t j = 0; j < n; ++j)
    for (TensorRef t : block.ops()[j].inputs) {
      ++uses[static_cast<size_t>(t.op)];
      user[static_cast<size_t>(t.op)] = static_cast<int>(j);
    }
  for (size_t i = n; i-- > 0;) {
    if (!fusable(block, block.ops()[i])) continue;
    bool joinsUser = uses[i] == 1 && root[static_cast<size_t>(user[i])] >= 0;
    root[i] = joinsUser ? root[static_cast<size_t>(user[i])] : static_cast<int>(i);
  }
  return root;
}

struct Match {
  std::vector<int> members;      // in graph order; the last is the root
  std::vector<TensorRef> inputs; // block tensors the members read from outside, each once
};

std::map<int, Match> findMatches(const PartitionedGraph& block) {
  std::vector<int> root = matchRoots(block);
  std::map<int, Match> matches;
  for (size_t i = 0; i < root.size(); ++i)
    if (root[i] >= 0) matches[root[i]].members.push_back(static_cast<int>(i));
  for (auto& [r, m] : matches)
    for (int i : m.members)
      for (TensorRef t : block.op(i).inputs)
        if (root[static_cast<size_t>(t.op)] != r && std::ranges::find(m.inputs, t) == m.inputs.end())
          m.inputs.push_back(t);
  return matches;
}

std::shared_ptr<const ThreadGraph> buildThreadGraph(const PartitionedGraph& block, const Match& m, int64_t threads,
                                                    const Shape& loop, const DimMap& fmap) {
  std::vector<TensorDesc> inputs;
  for (TensorRef t : m.inputs) inputs.push_back(block.desc(t));
  auto thread = std::make_shared<ThreadGraph>(inputs, Shape{threads}, loop);
  DimMap imap{static_cast<int>(block.op(m.members.back()).outputs[0].shape.size()) - 1};
  Renaming local;
  for (size_t k = 0; k < m.inputs.size(); ++k)
    local[m.inputs[k]] = thread->inputIterator(static_cast<int>(k), imap, fmap);
  for (int i : m.members) {
    Operator op = block.op(i);
    for (TensorRef& t : op.inputs) t = local.at(t);
    local[{i, 0}] = thread->append(std::move(op));
  }
  thread->outputAccumulator(local.at({m.members.back(), 0}), imap, fmap);
  return thread;
}

// Threads split the last dimension; for-loop dims take whole leading
// dimensions, innermost first, until one thread's tensors fit in
// `registers` words. nullptr if even looping over all of them does not.
std::shared_ptr<const ThreadGraph> threadGraphFor(const PartitionedGraph& block, const Match& m, int registers) {
  const Shape& shape = block.op(m.members.back()).outputs[0].shape;
  int64_t threads = std::min(shape.back(), kMaxThreads);
  while (shape.back() % threads != 0) --threads;
  Shape loop;
  DimMap fmap;
  for (int d = static_cast<int>(shape.size()) - 2;; --d) {
    auto thread = buildThreadGraph(block, m, threads, loop, fmap);
    if (registerWords(*thread) <= registers) return thread;
    while (d >= 0 && shape[static_cast<size_t>(d)] == 1) --d;
    if (d < 0) return nullptr;
    loop.push_back(shape[static_cast<size_t>(d)]);
    fmap.push_back(d);
  }
}

// Appends a copy of `op` reading renamed tensors, records where the outputs
// of `old` (operator `oldIndex` of the source graph) went, and keeps their
// layouts, which appending infers afresh.
void appendRenamed(OperatorGraph& to, Operator op, const Operator& old, int oldIndex, Renaming& renamed) {
  for (TensorRef& t : op.inputs) t = renamed.at(t);
  TensorRef first = to.append(std::move(op));
  for (size_t j = 0; j < old.outputs.size(); ++j) {
    TensorRef now{first.op, static_cast<int>(j)};
    renamed[{oldIndex, static_cast<int>(j)}] = now;
    if (!old.outputs[j].layout.isRowMajor()) to.setLayout(now, old.outputs[j].layout);
  }
}

// `block` with each match replaced by a graph-defined operator at the
// match's last operator, where all its inputs exist; nullptr if no match fits.
std::shared_ptr<const PartitionedGraph> withThreadGraphs(const PartitionedGraph& block, int registers) {
  std::map<int, Match> matches = findMatches(block);
  std::map<int, std::shared_ptr<const ThreadGraph>> threads;
  for (const auto& [root, m] : matches)
    if (auto thread = threadGraphFor(block, m, registers)) threads[root] = thread;
  if (threads.empty()) return nullptr;

  std::vector<int> fusedInto(block.ops().size(), -1);
  for (const auto& [root, thread] : threads)
    for (int i : matches.at(root).members) fusedInto[static_cast<size_t>(i)] = root;
  auto out = std::make_shared<BlockGraph>(block.inputs(), block.gridDims(), block.forLoopDims());
  Renaming renamed;
  for (int i = 0; i < static_cast<int>(block.ops().size()); ++i) {
    int root = fusedInto[static_cast<size_t>(i)];
    if (root < 0) {
      appendRenamed(*out, block.op(i), block.op(i), i, renamed);
    } else if (root == i) {
      Operator fused;
      fused.type = OpType::GraphDefined;
      fused.inputs = matches.at(root).inputs;
      fused.body = threads.at(root);
      appendRenamed(*out, std::move(fused), block.op(i), i, renamed);
    }
  }
  return out;
}

} // namespace

KernelGraph constructThreadGraphs(const KernelGraph& graph, const GpuPreset& preset) {
  KernelGraph out(graph.name());
  Renaming renamed;
  bool changed = false;
  for (int i = 0; i < static_cast<int>(graph.ops().size()); ++i) {
    Operator op = graph.op(i);
    if (op.type == OpType::GraphDefined)
      if (auto body = withThreadGraphs(*op.body, preset.registersPerThread)) {
        op.body = std::move(body);
        changed = true;
      }
    appendRenamed(out, std::move(op), graph.op(i), i, renamed);
  }
  if (!changed) return graph;
  for (TensorRef t : graph.outputs()) out.markOutput(renamed.at(t));
  return out;
}

} // namespace tcx::superopt
