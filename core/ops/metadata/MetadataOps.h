#pragma once
// The registration function of each file of this family; Register.cpp calls
// them all. And the attribute readers that the CPU kernels share with the
// CUDA forms (Cuda.cpp).

#include "ir/Attribute.h"
#include "ir/Tensor.h"

#include <cstdint>

namespace tcx {

class OpRegistry;

namespace metadata {

void registerShapeOps(OpRegistry& registry);    // ShapeOps.cpp: Shape, Size
void registerConstantOps(OpRegistry& registry); // Constant.cpp: Constant, ConstantOfShape
void registerRangeOp(OpRegistry& registry);     // Range.cpp
void registerEyeLikeOp(OpRegistry& registry);   // EyeLike.cpp
void registerCudaForms(OpRegistry& registry);   // Cuda.cpp, after the others

// Constant's value, from whichever attribute holds it.
Tensor constantValue(const AttrMap& attrs);
// The element ConstantOfShape repeats: f32 zero by default.
Tensor constantOfShapeValue(const AttrMap& attrs);
// EyeLike's diagonal k, clamped to [-rows, cols].
int64_t eyeDiagonal(const AttrMap& attrs, int64_t rows, int64_t cols);

} // namespace metadata
} // namespace tcx
