#pragma once
// The LAX fragment (Mirage Definition 2): multi-linear operators, division and
// exponentiation, with at most one exponentiation on every path from an input
// to an output. Only LAX programs get the finite-field guarantee. Which
// operators are LAX, and how many exponentiations each puts on a path, are
// columns of the operator table (OpInfo::lax, OpInfo::exponentials).

#include "mugraph/MuGraph.h"

#include <string>

namespace tcx::mugraph {

struct LaxCheck {
  bool lax = true;
  std::string reason; // why not, naming the operator: "op 4 (Sqrt) is not LAX"
};

// Inlines graph-defined operators: a path runs through block and thread graphs.
LaxCheck checkLax(const KernelGraph& graph);

} // namespace tcx::mugraph
