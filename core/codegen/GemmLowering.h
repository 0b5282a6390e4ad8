#pragma once
// A fused GEMM kernel (MatMul, Gemm or a 16-bit pointwise Conv, plus
// element-wise epilogue) on the library's GEMMs (kernels/include/tcx/
// gemm_*.cuh): operands as strided views of their buffers, whatever mapping
// function made them virtual, and the epilogue storing through the outputs'
// mapping functions. Other convolutions go on to ConvLowering.

#include "codegen/ValueCode.h"

namespace tcx {

struct CodegenTarget;

// Emits the kernel and returns true, or returns false (emitting nothing)
// when the kernel does not fit the library: operands that are not strided
// views, unsupported dtypes or batch layouts, convolutions emitLibraryConv
// refuses, a non-element-wise epilogue.
bool emitLibraryGemm(ValueCode& values, const CodegenTarget& target);

// The kernel's anchor MatMul on the library GEMM, its epilogue storing the
// outputs, where its operands are in memory once the kernel's other nodes
// are staged (a float attention's second product over the staged
// probabilities): no scratch for its result and no store kernel. False when
// an operand stays a function or the tail is not element-wise; the stages it
// emitted then serve the generic lowering.
bool emitGemmOverStages(ValueCode& values);

// Stages MatMul `mm`, a node inside a fused kernel that has no library kernel
// as a whole (a float attention), as the library GEMM launch `entry` writing
// `scratch` at the row-major `offset` of its output index; false (emitting
// nothing) when an operand is not in memory as a strided view.
bool emitStagedMatMul(ValueCode& values, const Node& mm, const std::string& entry, int scratch,
                      const std::string& offset);

} // namespace tcx
