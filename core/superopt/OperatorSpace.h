#pragma once
// The pre-defined operators the search may append to a kernel or block graph
// (Mirage Algorithm 1, lines 8 and 21: "for all op type t; input set I"),
// with their attributes enumerated from the operand shapes:
//   - Sum reduces a whole dimension (partial sums come from partitions);
//   - Reshape moves a unit dimension (GQA's [h, 1, d] -> [1, h, d], which
//     turns a block's GEMV into a GEMM) or, at the kernel level, produces the
//     reference's output shape;
//   - Repeat is not searched: a φ imap replicates without copying;
//   - RMSNorm is not searched: its parts are, and so is ForLoopRms, its
//     denominator accumulated over a block's for-loop, which lets the search
//     move the normalisation's division past a matmul (Mirage's RMSNorm
//     fusion) with one epsilon per sqrt(mean + epsilon) of the target;
//   - ForLoopSum, in block graphs with a for-loop, sums a computed tensor for
//     operators after the loop (storing its sum is an accumulator's job).
// Commutative operators take their operands in one order.

#include "mugraph/MuGraph.h"
#include "superopt/AbstractExpr.h"
#include "superopt/AxisLabels.h"
#include "superopt/TargetCoverage.h"

#include <functional>
#include <vector>

namespace tcx::superopt {

struct Vocabulary {
  std::vector<mugraph::OpType> types; // pre-defined operator types to try
  std::vector<Shape> reshapeTargets; // kernel level: the reference's output shapes
  std::vector<double> rmsEpsilons;   // ForLoopRms: the target's epsilons
};

// With `restrictToTarget`, only the operators whose abstract expression's
// function symbols all occur in `target` (any other one is pruned by the
// subexpression check anyway, so this only saves solver calls); without,
// every pre-defined operator (the ablation without abstract expressions).
Vocabulary vocabularyFor(const mugraph::KernelGraph& reference, const ExprRef& target, bool restrictToTarget);

// Calls `emit` with every operator of the vocabulary that reads tensors of
// `available` and whose shapes are plausible (shape inference has the final
// word when the operator is appended).
void forEachOperator(const mugraph::OperatorGraph& graph, const std::vector<mugraph::TensorRef>& available,
                     const Vocabulary& vocabulary, const std::function<void(mugraph::Operator)>& emit);

// The tensors of `graph` (whose tensors' expressions are `exprs` and axes
// `labels`) that a graph-defined operator may read: those with known axes,
// constants aside. With `coverage`, a tensor that a graph-defined operator
// computes, or that derives from one, only while each such operator's
// outputs hold target summands (TargetCoverage::holdsTargetSummands):
// FlashDecoding's partial numerators and denominators, GQA's exps. Pruning
// lets through terms the target contains only abstractly (gated_mlp's
// sum(x gate up), which mixes the two matmuls' operands); a graph-defined
// operator reading one opens a space that took 37 s on one thread to
// exhaust at 2 x 4 and holds nothing, and the search met several before the
// fused form. The rule rests on abstract expressions: the ablation without
// them passes no `coverage`.
std::vector<mugraph::TensorRef> graphDefinedOperands(const mugraph::KernelGraph& graph,
                                                     const std::vector<std::vector<ExprRef>>& exprs,
                                                     const AxisAnalysis::Labelled& labels,
                                                     const TargetCoverage* coverage);

// Calls `emit` with the output accumulators that store block tensor `x`,
// whose axes are `labels` (AxisLabels.h): a partition dimension that splits
// an axis x still carries maps to that dimension; one that x does not carry
// was reduced inside the block, so a for-loop accumulates it (φ) and the grid
// lays the partial results out along the outermost free unit dimension.
void forEachAccumulator(const mugraph::PartitionedGraph& graph, mugraph::TensorRef x, const TensorLabels& labels,
                        const std::function<void(mugraph::Operator)>& emit);

} // namespace tcx::superopt
