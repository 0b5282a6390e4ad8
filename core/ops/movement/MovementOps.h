#pragma once
// The registration functions of the data-movement family, one per file;
// registerMovementOps (ops/Registration.h) calls them all.

namespace tcx {

class OpRegistry;

void registerReshapeOps(OpRegistry& registry);     // Reshape, Squeeze, Unsqueeze, Flatten, Identity
void registerTransposeOps(OpRegistry& registry);   // Transpose, DepthToSpace, SpaceToDepth
void registerSliceOp(OpRegistry& registry);        // Slice
void registerConcatSplitOps(OpRegistry& registry); // Concat, Split
void registerExpandOps(OpRegistry& registry);      // Expand, Tile
void registerPadOp(OpRegistry& registry);          // Pad
void registerGatherOps(OpRegistry& registry);      // Gather, GatherElements, GatherND
void registerScatterOps(OpRegistry& registry);     // ScatterND, ScatterElements
// After the others: the μGraph forms of Reshape, Squeeze, Unsqueeze, Flatten,
// Identity and Expand (MuGraph.cpp), and the CUDA forms of the ops with
// mapping functions and Pad (Cuda.cpp) and of the gathers and scatters
// (CudaIndexed.cpp).
void registerMovementMuGraphForms(OpRegistry& registry);
void registerMovementCudaForms(OpRegistry& registry);
void registerIndexedCudaForms(OpRegistry& registry);

} // namespace tcx
