#pragma once
// The registration function of each file of this family; Register.cpp calls
// them all.

namespace tcx {

class OpRegistry;

namespace metadata {

void registerShapeOps(OpRegistry& registry);    // ShapeOps.cpp: Shape, Size
void registerConstantOps(OpRegistry& registry); // Constant.cpp: Constant, ConstantOfShape
void registerRangeOp(OpRegistry& registry);     // Range.cpp
void registerEyeLikeOp(OpRegistry& registry);   // EyeLike.cpp

} // namespace metadata
} // namespace tcx
