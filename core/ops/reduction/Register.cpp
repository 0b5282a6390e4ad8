#include "ops/Registration.h"
#include "ops/reduction/ReductionOps.h"

namespace tcx {

void registerReductionOps(OpRegistry& registry) {
  reduction::registerReduceOps(registry);
  reduction::registerArgMaxOps(registry);
  reduction::registerSoftmaxOps(registry);
  reduction::registerCumSum(registry);
  reduction::registerCudaForms(registry);
  reduction::registerMuGraphForms(registry);
}

} // namespace tcx
