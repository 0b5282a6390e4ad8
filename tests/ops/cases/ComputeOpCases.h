#pragma once
// Small graphs that exercise the CUDA forms of the compute ops
// (ops/CudaLowering.h) across their attribute variants and dtypes, with
// ragged sizes, windows hanging over edges, and inputs that are virtual
// tensors once VTC has run (a Transpose, Slice, Concat or Pad in front).
// tests/codegen compiles each graph's plans with NVRTC (op_nvrtc_test);
// tests/gpu runs the very same graphs on a device against the CPU reference
// (compute_op_gpu_test).

#include "ir/Graph.h"

#include <functional>
#include <string>
#include <vector>

namespace tcx::test {

struct OpCase {
  std::string name; // the op, its variants and dtype: "MaxPool 2-D f16"
  std::function<Graph()> build;
};

std::vector<OpCase> elementwiseCases();   // ElementwiseCases.cpp
std::vector<OpCase> typeCases();          // Cast, Where, comparisons and logic over every dtype (TypeCases.cpp)
std::vector<OpCase> reductionCases();     // ReductionCases.cpp
std::vector<OpCase> poolingCases();       // PoolingCases.cpp
std::vector<OpCase> normalizationCases(); // NormalizationCases.cpp
std::vector<OpCase> convolutionCases();   // ConvolutionCases.cpp
std::vector<OpCase> gemmCases();          // GemmCases.cpp
std::vector<OpCase> attentionCases();     // AttentionCases.cpp

// All of the above.
std::vector<OpCase> computeOpCases();

} // namespace tcx::test
