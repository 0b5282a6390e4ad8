#include "ops/OpRegistry.h"
#include "ops/Registration.h"
#include "ops/movement/MovementOps.h"

namespace tcx {

void registerMovementOps(OpRegistry& registry) {
  registerReshapeOps(registry);
  registerTransposeOps(registry);
  registerSliceOp(registry);
  registerConcatSplitOps(registry);
  registerExpandOps(registry);
  registerPadOp(registry);
  registerGatherOps(registry);
  registerScatterOps(registry);
  registerMovementMuGraphForms(registry);
  registerMovementCudaForms(registry);
  registerIndexedCudaForms(registry);
}

} // namespace tcx
