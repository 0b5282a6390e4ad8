#pragma once
// The op definitions of the nn family, one function per op; Register.cpp
// adds them all to the registry.

#include "ops/OpDef.h"

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

} // namespace tcx::nn
