#pragma once
// Rewrites an op that is a per-channel affine map at inference
// (OpDef::inferenceAffine: BatchNormalization with constant statistics) as
//
//   y = Add(Mul(x, scale), shift)     scale, shift: constants [C, 1, ..., 1]
//
// TVM's SimplifyInference does the same. The op's CUDA form computes
// (x - mean) / sqrt(var + eps) * gamma + beta for every element, a square
// root and a division each; the Mul and Add are a multiply-add on
// coefficients folded once, here. As element-wise ops they also fuse where a
// normalization cannot: into a convolution's epilogue as before, and ahead of
// a pointwise convolution as its operand's prologue (fusion/FusionPass.h),
// which is how DenseNet's BN-ReLU over each concatenation stops being a
// kernel that writes a copy of it.
//
// The coefficients are the ones the CPU kernel computes (in double, rounded
// to x's dtype), so the rewrite changes values by the rounding of the
// product alone. A graph output keeps its op, and with it its name. The new
// nodes are untyped: infer-and-fold runs after.

namespace tcx {

class Graph;

// Returns the number of ops rewritten.
int batchNormsToAffine(Graph& graph);

} // namespace tcx
