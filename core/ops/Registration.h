#pragma once
// One registration function per op family; OpRegistry::instance() calls
// them all. Each lives next to its family's kernels.

namespace tcx {

class OpRegistry;

void registerMovementOps(OpRegistry& registry);    // ops/movement
void registerElementwiseOps(OpRegistry& registry); // ops/elementwise
void registerReductionOps(OpRegistry& registry);   // ops/reduction
void registerNnOps(OpRegistry& registry);          // ops/nn
void registerMetadataOps(OpRegistry& registry);    // ops/metadata

} // namespace tcx
