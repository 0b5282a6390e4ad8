#pragma once
// How far a result is from the reference, on the scale of the reference:
// max |got - ref| / max |ref|. GPU kernels sum in other orders and round P
// or intermediates differently than the CPU reference; after a contraction
// over thousands of terms an element near zero can be off by a lot relative
// to itself but not relative to the tensor, which is what matters.

#include "ir/Graph.h"
#include "ir/Tensor.h"

#include <vector>

namespace tcx {

// Infinity when the shapes or dtypes differ, or got has a NaN where ref has
// none; 0 for identical tensors.
double scaledError(const Tensor& got, const Tensor& ref);

// The scaled error a GPU plan may make against the reference executor: a
// few roundings of the dtype (summation order, transcendental functions,
// where attention rounds P). Convolutions run on tf32 tensor cores (operands
// rounded to f16's 10-bit mantissa, as cuDNN's default), so float graphs
// with one get f16's tolerance. Integers and booleans must match exactly.
// Used by `tcx profile --check` and every GPU test.
double gpuTolerance(DType dtype, bool tf32);
// Whether `graph` has a node that runs on tf32 tensor cores.
bool usesTf32(const Graph& graph);

// The verdict on a GPU plan's outputs against the reference's, about one
// output: the first over its tolerance, else the one with the largest error.
struct GpuCheck {
  bool passed = true;
  double error = 0; // its scaled error
  double tolerance = 0;
  std::string output;
  std::string describe() const; // "check passed: max error 3.1e-06 of the output's scale"
};
GpuCheck checkGpuOutputs(const Graph& graph, const std::vector<Tensor>& got, const std::vector<Tensor>& ref);

} // namespace tcx
