#pragma once
// How tcx's dtypes appear in generated CUDA: the storage type of a buffer
// element and the compute type arithmetic runs in (float for f16/bf16, as on
// the CPU: core/ir/DType.h's ComputeType).

#include "ir/DType.h"

#include <string>

namespace tcx {

const char* cudaStorageType(DType t); // "__nv_bfloat16", "float", ...
const char* cudaComputeType(DType t); // "float", "double", "long long", ...
int cudaComputeBytes(DType t);        // the size of cudaComputeType(t)
// An exact literal of `value` in the compute type of `t` (hex floats, so
// nothing is lost in printing).
std::string cudaLiteral(double value, DType t);

} // namespace tcx
