#pragma once
// Liveness-based allocation of a plan's intermediate buffers in one arena:
// a buffer lives from the first kernel that touches it (through any access,
// virtual ones included) to the last; buffers whose lifetimes do not overlap
// share memory (first fit, 256-byte aligned). Sets each buffer's liveness
// and arena offset, the arena's size and the external bytes.

namespace tcx {

struct ExecPlan;
void planBuffers(ExecPlan& plan);

} // namespace tcx
