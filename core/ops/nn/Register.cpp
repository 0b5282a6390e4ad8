#include "ops/OpRegistry.h"
#include "ops/Registration.h"
#include "ops/nn/Ops.h"

namespace tcx {

void registerNnOps(OpRegistry& registry) {
  registry.add(nn::matMulOp());
  registry.add(nn::gemmOp());
  registry.add(nn::convOp());
  registry.add(nn::convTransposeOp());
  registry.add(nn::maxPoolOp());
  registry.add(nn::averagePoolOp());
  registry.add(nn::globalAveragePoolOp());
  registry.add(nn::globalMaxPoolOp());
  registry.add(nn::layerNormalizationOp());
  registry.add(nn::batchNormalizationOp());
  registry.add(nn::instanceNormalizationOp());
  registry.add(nn::lpNormalizationOp());
  nn::registerCudaForms(registry);
  nn::registerMuGraphForms(registry);
  nn::registerRandomRanges(registry);
}

} // namespace tcx
