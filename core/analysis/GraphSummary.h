#pragma once
// What `tcx info` and the explorer's overview show about a model: op
// counts, data-movement ops, tensors and their sizes.

#include "ir/Graph.h"

#include <map>
#include <string>
#include <vector>

namespace tcx {

struct TensorSummary {
  std::string name;
  TensorType type;
  enum class Kind { Input, Output, Constant, Intermediate } kind;
  std::string producer; // node name, empty for inputs and constants
};

struct OpCount {
  std::string opType;
  size_t count = 0;
  bool dataMovement = false;
};

struct GraphSummary {
  std::string graphName;
  size_t numNodes = 0;
  size_t numDataMovementNodes = 0;
  std::vector<OpCount> ops; // sorted by count, then name
  std::vector<TensorSummary> tensors; // inputs, then node results in order, then constants
  uint64_t inputBytes = 0;
  uint64_t outputBytes = 0;
  uint64_t constantBytes = 0;
  uint64_t intermediateBytes = 0; // sum over all intermediates, not a peak
};

GraphSummary summarizeGraph(const Graph& graph);
const char* tensorKindName(TensorSummary::Kind kind);

} // namespace tcx
