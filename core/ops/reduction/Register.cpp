#include "ops/OpRegistry.h"
#include "ops/Registration.h"

namespace tcx {

void registerReductionOps(OpRegistry&) {}

} // namespace tcx
