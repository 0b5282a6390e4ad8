#pragma once
// The CPU reference executor: runs a Graph node by node with the registry's
// CPU kernels. It is the numerical ground truth that optimised plans and GPU
// kernels are compared against, so it favours obvious correctness; memory
// is bounded by freeing each intermediate after its last use.

#include "ir/Graph.h"
#include "support/Progress.h"

#include <map>
#include <string>
#include <vector>

namespace tcx {

struct NodeTiming {
  const Node* node;
  double seconds;
};

struct ExecutionResult {
  std::vector<Tensor> outputs; // in graph output order
  std::vector<NodeTiming> timings;
  double seconds = 0;
  size_t peakBytes = 0; // largest sum of live tensors (inputs and constants excluded)
};

class ReferenceExecutor {
public:
  explicit ReferenceExecutor(const Graph& graph);

  // `inputs` maps every graph input name to a tensor of its declared type.
  ExecutionResult run(const std::map<std::string, Tensor>& inputs, const ProgressFn& progress = {}) const;

private:
  const Graph& graph_;
  std::vector<Node*> order_;
  // For each node position, the values whose last use is that node.
  std::vector<std::vector<const Value*>> releaseAfter_;
};

} // namespace tcx
