#include "ops/OpRegistry.h"
#include "ops/Registration.h"

namespace tcx {

void registerNnOps(OpRegistry&) {}

} // namespace tcx
