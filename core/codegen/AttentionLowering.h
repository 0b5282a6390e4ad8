#pragma once
// A fused attention kernel (MatMul -> element-wise score ops -> Softmax ->
// casts -> MatMul) on the library's attentions: 16-bit types on the split-K
// attention (kernels/include/tcx/attention.cuh), fp32 on the flash-style
// 3xTF32 one (attention_f32.cuh). K and V are read as strided views of
// their buffers with the query head divided by the group size: the GQA/MQA
// Expand that VTC made virtual becomes an index, so one KV head is loaded
// once per group of query heads and never copied.

#include "codegen/ValueCode.h"

namespace tcx {

struct CodegenTarget;

// Emits the kernel and returns true, or returns false (emitting nothing)
// when the kernel does not fit: other op sequences, 16-bit head dims other
// than 64/128/256, fp32 head dims not a multiple of 8 up to 128, other types,
// K or V not strided with a contiguous head dim.
bool emitLibraryAttention(ValueCode& values, const CodegenTarget& target);

} // namespace tcx
