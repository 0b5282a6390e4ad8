#pragma once
// The registration functions of the reduction family's files;
// registerReductionOps (Register.cpp) calls them all.

namespace tcx {
class OpRegistry;
} // namespace tcx

namespace tcx::reduction {

void registerReduceOps(OpRegistry& registry);  // ReduceSum, ReduceMean, ... (ReduceOps.cpp)
void registerArgMaxOps(OpRegistry& registry);  // ArgMax, ArgMin, Hardmax (ArgMax.cpp)
void registerSoftmaxOps(OpRegistry& registry); // Softmax, LogSoftmax (Softmax.cpp)
void registerCumSum(OpRegistry& registry);     // CumSum.cpp
void registerCudaForms(OpRegistry& registry);  // Cuda.cpp, after the others
void registerMuGraphForms(OpRegistry& registry); // MuGraph.cpp, after the others

} // namespace tcx::reduction
