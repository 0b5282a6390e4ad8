#pragma once
// Checked conversion of ONNX TensorProto element types to tcx dtypes, with
// the ONNX names that messages use (ir/DType.h has the plain mapping).

#include "ir/DType.h"

#include <cstdint>
#include <string>

namespace tcx {

// The dtype of an ONNX element type; raises Unsupported naming the ONNX type
// (STRING, FLOAT8E4M3FN, UINT16, ...) when tcx has no counterpart, and
// InvalidModel for UNDEFINED.
DType dtypeOfElemType(int32_t elemType);
// "FLOAT", "BFLOAT16", ..., or "<code N>" for codes newer than tcx knows.
std::string onnxElemTypeName(int32_t elemType);

} // namespace tcx
