#pragma once
// The registration function of each file of this family; Register.cpp calls
// them all.

namespace tcx {

class OpRegistry;

namespace elementwise {

void registerArithmeticOps(OpRegistry& registry); // Arithmetic.cpp
void registerLogicOps(OpRegistry& registry);      // Logic.cpp
void registerMathOps(OpRegistry& registry);       // Math.cpp
void registerActivationOps(OpRegistry& registry); // Activation.cpp
void registerSelectOps(OpRegistry& registry);     // Select.cpp
void registerCastOps(OpRegistry& registry);       // Cast.cpp
void registerDropoutOp(OpRegistry& registry);     // Dropout.cpp
void registerTriluOp(OpRegistry& registry);       // Trilu.cpp
void registerCudaForms(OpRegistry& registry);     // Cuda.cpp, after the others
void registerMuGraphForms(OpRegistry& registry);  // MuGraph.cpp, after the others

} // namespace elementwise
} // namespace tcx
