#pragma once
// Operator fusion the way TorchInductor does it, producing VTC's input: a
// kernel graph. Rules, in order:
//  1. attention: MatMul -> element-wise ops (scale, cast, mask, soft-cap)
//     -> Softmax (or Exp/ReduceSum/Div) -> MatMul becomes one kernel;
//  2. element-wise ops join the kernel of their producer as an epilogue
//     (GEMM/Conv bias and activation, chains of element-wise ops, the tail
//     of a normalization) when they iterate over the same elements;
//  3. element-wise producers used only by a reduction join it as a
//     prologue (RMSNorm's Pow before ReduceMean, a Cast before Softmax);
//  4. element-wise producers used only by a float pointwise convolution,
//     mapping each element of one tensor by its channel, join it as its
//     input's prologue (DenseNet's BN-ReLU over a concatenation).
// Data-movement ops are never fused. No fusion may create a cycle between
// kernels.

#include "fusion/KernelGraph.h"

namespace tcx {

KernelGraph fuseOperators(const Graph& graph);

// A Conv with 1x1 filters, one group, unit strides and dilations and no
// padding: a GEMM per image over the pixels (rule 4; codegen's GEMM form).
bool isPointwiseConvolution(const Node& conv);

// Whether operand `operand` of a node of a channel prologue (rule 4), whose
// results have `shape`, is read at the channel alone, where the chain does
// not compute it: a channel-affine op's coefficients
// (OpDef::cudaChannelAffine), an element-wise op's operand that broadcasts
// (NumPy's rules) along dimension 1 at most. Rule 4 and code generation
// (codegen/PrologueCode.h) both classify operands by it.
bool readAtChannel(const Node& node, size_t operand, const Shape& shape);

} // namespace tcx
