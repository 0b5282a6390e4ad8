#pragma once
// Moves an element-wise op out of a pair of reshapes that undo each other:
//
//   y = Reshape(E(Reshape(x, s), c), shape(x))  ->  y = E(x, Reshape(Expand(c, s), shape(x)))
//
// Swin's shifted-window attention adds its mask this way: the scores
// [images x windows, heads, N, N] are viewed as [images, windows, heads, N, N]
// so that the mask [1, windows, 1, N, N] broadcasts over the images, then
// viewed back for the softmax. The reshapes keep the mask out of the
// attention kernel's score ops (codegen/AttentionLowering.cpp); after the
// rewrite the mask reaches E through an Expand and a Reshape, data movement
// that VTC reads through a mapping function (window = row / heads % windows)
// rather than copies.
//
// Sound for any E that computes each output element from its operands'
// elements at the same index (an element-wise op with a cudaExpr form;
// Trilu, also element-wise, reads its own position): a reshape keeps the
// row-major order, so applying E before or after one pairs the same
// elements. The new nodes are untyped: infer-and-fold runs after.

namespace tcx {

class Graph;

// Returns the number of element-wise ops moved.
int moveElementwiseOutOfReshapes(Graph& graph);

} // namespace tcx
