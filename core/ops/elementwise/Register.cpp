#include "ops/OpRegistry.h"
#include "ops/Registration.h"
#include "ops/elementwise/ElementwiseOps.h"

namespace tcx {

void registerElementwiseOps(OpRegistry& registry) {
  elementwise::registerArithmeticOps(registry);
  elementwise::registerLogicOps(registry);
  elementwise::registerMathOps(registry);
  elementwise::registerActivationOps(registry);
  elementwise::registerSelectOps(registry);
  elementwise::registerCastOps(registry);
  elementwise::registerDropoutOp(registry);
  elementwise::registerTriluOp(registry);
  elementwise::registerCudaForms(registry);
  elementwise::registerMuGraphForms(registry);
}

} // namespace tcx
