#include "ops/OpRegistry.h"
#include "ops/Registration.h"
#include "ops/metadata/MetadataOps.h"

namespace tcx {

void registerMetadataOps(OpRegistry& registry) {
  metadata::registerShapeOps(registry);
  metadata::registerConstantOps(registry);
  metadata::registerRangeOp(registry);
  metadata::registerEyeLikeOp(registry);
  metadata::registerCudaForms(registry);
}

} // namespace tcx
