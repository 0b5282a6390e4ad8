#include "cost/CostOracle.h"

#include "plan/LayoutChoice.h"

#include <algorithm>
#include <unordered_set>

namespace tcx {

namespace {

// The VTOG edges reachable from a kernel's tensors along chosen-edge
// direction (from -> to): whatever of them is chosen decides how the
// kernel's tensors resolve to storage, and, for a data-movement kernel, what
// its op still copies (its own edges leave its inputs and outputs).
std::vector<int> reachableEdges(const FusedKernel& k, const Vtog& vtog) {
  std::vector<const Value*> stack(k.inputs.begin(), k.inputs.end());
  stack.insert(stack.end(), k.outputs.begin(), k.outputs.end());
  if (k.isDataMovement()) {
    for (const Value* v : k.anchor->inputs())
      if (v) stack.push_back(v);
    for (const Value* v : k.anchor->outputs())
      if (v) stack.push_back(v);
  }
  std::unordered_set<const Value*> seen;
  std::vector<int> edges;
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (!seen.insert(v).second) continue;
    for (int e : vtog.outgoing(v)) {
      edges.push_back(e);
      stack.push_back(vtog.edge(e).to);
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

} // namespace

CostOracle::CostOracle(const KernelGraph& kernels, const Vtog& vtog, CostModel model, PlanOptions options)
    : kernels_(kernels), vtog_(vtog), model_(std::move(model)), options_(options), affected_(vtog.edges().size()) {
  // Decided once here, not at each of the thousands of kernel lowerings
  // (12 % of DenseNet-121's greedy went to deciding it again).
  options_.layouts = decideLayoutPolicy(kernels, vtog, options.layouts);
  for (size_t k = 0; k < kernels.kernels().size(); ++k) {
    reach_.push_back(reachableEdges(kernels.kernels()[k], vtog));
    for (int e : reach_.back()) affected_[e].push_back(k);
  }
}

double CostOracle::kernelSeconds(size_t k, const std::set<int>& selected) {
  std::vector<int> relevant;
  for (int e : reach_[k])
    if (selected.count(e)) relevant.push_back(e);
  auto key = std::make_pair(k, std::move(relevant));
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const PointsToGraph strategy(vtog_, std::set<int>(key.second.begin(), key.second.end()));
  double seconds = 0;
  for (const PlanKernel& pk : lowerKernel(kernels_, kernels_.kernels()[k], strategy, options_))
    seconds += model_.estimate(pk).seconds;
  return cache_[std::move(key)] = seconds;
}

double CostOracle::latency(const std::set<int>& selected) {
  double seconds = 0;
  for (size_t k = 0; k < reach_.size(); ++k) seconds += kernelSeconds(k, selected);
  return seconds;
}

std::optional<double> CostOracle::localSaving(const std::set<int>& chosen, const std::vector<int>& cover) {
  std::vector<size_t> kernels;
  for (int e : cover) kernels.insert(kernels.end(), affected_[e].begin(), affected_[e].end());
  std::sort(kernels.begin(), kernels.end());
  kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
  std::set<int> with = chosen;
  with.insert(cover.begin(), cover.end());
  double saving = 0;
  for (size_t k : kernels) saving += kernelSeconds(k, chosen) - kernelSeconds(k, with);
  return saving;
}

} // namespace tcx
