#pragma once
// The types that a model declares for its graph inputs and outputs, against
// which tcx's static types are resolved and checked.

#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <string>

namespace onnx {
class ValueInfoProto;
}

namespace tcx {

using DimBindings = std::map<std::string, int64_t>;

// The static type of a graph input; symbolic dimensions take their size from
// `dims`, and an unbound one raises ShapeInference saying how to bind it.
TensorType inputType(const onnx::ValueInfoProto& info, const DimBindings& dims);

// Raises InvalidArgument if `value` cannot stand for the input `info`
// declares: another element type, or a size that contradicts a fixed or
// bound dimension.
void checkInputBinding(const onnx::ValueInfoProto& info, const Tensor& value, const DimBindings& dims);

// Raises ShapeInference if the inferred type of graph output `value`
// contradicts its declaration; unknown and unbound dimensions match any size.
void checkOutputType(const onnx::ValueInfoProto& info, const Value& value, const DimBindings& dims);

} // namespace tcx
