#include "ops/OpRegistry.h"
#include "ops/Registration.h"

namespace tcx {

void registerMetadataOps(OpRegistry&) {}

} // namespace tcx
