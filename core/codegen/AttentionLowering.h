#pragma once
// A fused attention kernel (MatMul -> element-wise score ops -> Softmax ->
// casts -> MatMul) on the library's split-K attention
// (kernels/include/tcx/attention.cuh). K and V are read as strided views of
// their buffers with the query head divided by the group size: the GQA/MQA
// Expand that VTC made virtual becomes an index, so one KV head is loaded
// once per group of query heads and never copied.

#include "codegen/ValueCode.h"

namespace tcx {

struct CodegenTarget;

// Emits the kernel and returns true, or returns false (emitting nothing)
// when the kernel does not fit: other op sequences, head dims other than
// 64/128/256, 32-bit types, K or V not strided with a contiguous head dim.
bool emitLibraryAttention(ValueCode& values, const CodegenTarget& target);

} // namespace tcx
