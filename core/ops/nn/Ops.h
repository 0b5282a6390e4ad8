#pragma once
// The op definitions of the nn family, one function per op; Register.cpp
// adds them all to the registry.

#include "ops/OpDef.h"

namespace tcx {
class OpRegistry;
}

namespace tcx::nn {

OpDef matMulOp();
OpDef gemmOp();
OpDef convOp();
OpDef convTransposeOp();
OpDef maxPoolOp();
OpDef averagePoolOp();
OpDef globalAveragePoolOp();
OpDef globalMaxPoolOp();
OpDef layerNormalizationOp();
OpDef batchNormalizationOp();
OpDef instanceNormalizationOp();
OpDef lpNormalizationOp();

// The CUDA forms of the ops above (Cuda.cpp), once they are registered.
void registerCudaForms(OpRegistry& registry);
// Their μGraph forms (MuGraph.cpp), likewise.
void registerMuGraphForms(OpRegistry& registry);
// Where random values of their weights lie (RandomRanges.cpp).
void registerRandomRanges(OpRegistry& registry);

} // namespace tcx::nn
