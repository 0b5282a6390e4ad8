#pragma once
// Shape inference and constant folding, done together in one walk.

#include <cstddef>

namespace tcx {

class Graph;

struct FoldOptions {
  // Off, the walk only infers types.
  bool fold = true;
  // Results larger than this are left to run time, so that folding does not
  // bloat the graph with, say, a transposed copy of every weight.
  size_t maxFoldBytes = size_t{1} << 20;
};

// Visits the nodes in topological order, inferring the types of each node's
// results and, when all of its present operands are constants (or it is a
// Shape or Size, whose result only needs its operand's static type, or its
// results have no elements), evaluating it and replacing its results by
// constants.
//
// The two share one walk because each needs the other: PyTorch exports
// compute shapes at run time (Shape -> Gather -> Concat -> Reshape), so the
// type of the Reshape, and of everything downstream of it, can only be
// inferred once the subgraph in front of its shape operand has been folded,
// and that subgraph can only be folded once the types it reads are inferred.
// Walking once in topological order settles each node after all its
// operands, with no fixpoint iteration.
//
// Results that are graph outputs keep their node, so that they keep their
// names. Raises the errors of inference, prefixed with the failing node.
void inferAndFold(Graph& graph, const FoldOptions& options = {});

} // namespace tcx
