#pragma once
// The LAX fragment (Mirage Definition 2): multi-linear operators, division and
// exponentiation, with at most one exponentiation on every path from an input
// to an output. Only LAX programs get the finite-field guarantee.

#include "mugraph/MuGraph.h"

#include <string>

namespace tcx::mugraph {

// Whether `type` may appear in a LAX program. Matmul, ConcatMatmul, Sum and
// EwMul are multi-linear; EwAdd and Square are polynomials, which Equation (2)
// covers as well; Repeat, Reshape and the iterators only move data; SiLU is
// x / (1 + e^-x), one exponentiation and a division. Sqrt and RMSNorm are not.
bool isLaxOperator(OpType type);
// How many exponentiations `type` puts on a path through it (EwExp, SiLU: 1).
int expCount(OpType type);

struct LaxCheck {
  bool lax = true;
  std::string reason; // why not, naming the operator: "op 4 (Sqrt) is not LAX"
};

// Inlines graph-defined operators: a path runs through block and thread graphs.
LaxCheck checkLax(const KernelGraph& graph);

} // namespace tcx::mugraph
