#include "ops/OpRegistry.h"
#include "ops/Registration.h"

namespace tcx {

void registerElementwiseOps(OpRegistry&) {}

} // namespace tcx
