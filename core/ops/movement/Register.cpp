#include "ops/OpRegistry.h"
#include "ops/Registration.h"

namespace tcx {

void registerMovementOps(OpRegistry&) {}

} // namespace tcx
