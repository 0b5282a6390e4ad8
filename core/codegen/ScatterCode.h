#pragma once
// The kernels of a scatter (ScatterND, ScatterElements: an op with a
// CudaScatterForm, ops/CudaLowering.h), whose output is one operand with
// some elements written: a copy of that operand into the output, skipped
// when the plan stores both in one buffer (an in-place update, so that a
// KV-cache update writes only the new rows), then one thread per update
// storing it at the destination the op's form computes, through the
// output's mapping function, atomically where a reduction combines it.

#include "codegen/ValueCode.h"

namespace tcx {

// Emits the kernels and returns true when the kernel's anchor op has a
// scatter form; returns false (emitting nothing) otherwise.
bool emitScatter(ValueCode& values);

} // namespace tcx
