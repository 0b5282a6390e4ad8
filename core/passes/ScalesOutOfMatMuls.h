#pragma once
// Moves one-element float scales out of a float matrix product:
//
//   y = MatMul(Mul(a, s), Mul(b, t))  ->  y = Mul(Mul(MatMul(a, b), s), t)
//
// with either side unscaled alike, and Div by a scale likewise. PyTorch's
// scaled_dot_product_attention exports this way (ViT-B/16, Swin-T): Q and K^T
// are each scaled by d^-1/4 before the product, and each Mul was a kernel
// that wrote a scaled copy of Q or K (ViT-B/16: 54 us a layer at 32 images on
// an H200). After the rewrite the scales are score ops of the attention
// kernel (codegen/AttentionLowering.cpp), a multiply each in registers. The
// scales need not be constants: exports whose weights are graph inputs have
// ViT's scale as one.
//
// float32 only: the product is exact in real arithmetic and differs from the
// export's by rounding alone, but a 16-bit type could overflow in the
// unscaled product where the scaled one would not. Scaled operands read by
// anything else stay as they are. The new nodes are untyped: infer-and-fold
// runs after.

namespace tcx {

class Graph;

// Returns the number of matrix products rewritten.
int moveScalesOutOfMatMuls(Graph& graph);

} // namespace tcx
