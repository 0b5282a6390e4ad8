#pragma once
// A fused convolution kernel (Conv plus element-wise epilogue) on the kernel
// library's convolutions: the implicit GEMM (conv_implicit_gemm.cuh, one GEMM
// per group where groups have 4 or more filters) and the depthwise kernel
// (conv_depthwise.cuh). Operands are strided views of their buffers, whatever
// mapping function made them virtual; the epilogue stores through the
// outputs' mapping functions. Pointwise 16-bit convolutions take the GEMMs
// instead (GemmLowering).

#include "codegen/ValueCode.h"
#include "tcx/launch.h"

#include <string>

namespace tcx {

struct CodegenTarget;

// Emits the anchor Conv's kernel in `type` and returns true, or returns false
// (emitting nothing) where the library has no kernel for it: not 2-D, not
// strided views, groups of 2 or 3 filters, a non-element-wise epilogue.
bool emitLibraryConv(ValueCode& values, ElemType type, const CodegenTarget& target);

// The kernel's anchor if the kernel is a convolution's (KernelKind::Conv on
// a FusionRole::Convolution op), else null.
const Node* convolutionAnchor(const ValueCode& values);

// The epilogue's index of a convolution output (image, channel, spatial...)
// from (batch, m, n) = (image, output channel, flattened spatial position).
std::string convOutIndex(const Shape& ys);

// The accumulator plus the convolution's bias, if it has one.
std::string convAcc(ValueCode& values, const Node& conv);

} // namespace tcx
