#pragma once
// Canonical form and stable hash (Mirage §4.1).
//
// An operator's rank is (I, t): its input tensor indices and its type, here
// compared as (largest input index, I, t, attributes). Leading with the
// largest index makes the canonical order exactly the greedy topological
// order "always take the ready operator of least rank": every operator that
// becomes ready after o reads o's output, whose index is larger than any
// earlier one, so ranks increase along that order. A search therefore keeps
// prefixes canonical with one comparison per extension (extendsCanonically),
// and any graph reaches its canonical form by that greedy reordering.
//
// The hash is FNV-1a over the canonical form's fields (never std::hash), so it
// is the same across runs, builds and machines.

#include "mugraph/MuGraph.h"

#include <cstdint>

namespace tcx::mugraph {

struct Rank {
  int maxInput = -1;
  std::vector<TensorRef> inputs;
  OpType type = OpType::Input;
  uint64_t attributes = 0; // hash of everything else, inputs excluded
  auto operator<=>(const Rank&) const = default;
};

// `ordinal`: for Input operators, their position among the program inputs,
// which canonical reordering must keep.
Rank rankOf(const Operator& op, int ordinal = 0);
// Whether appending `op` to `graph` keeps it canonical.
bool extendsCanonically(const OperatorGraph& graph, const Operator& op);
// Canonical at every level.
bool isCanonical(const KernelGraph& graph);
KernelGraph canonicalize(const KernelGraph& graph);
uint64_t stableHash(const KernelGraph& graph);

} // namespace tcx::mugraph
