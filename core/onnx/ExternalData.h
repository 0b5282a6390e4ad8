#pragma once
// Tensor data stored outside the model file (TensorProto data_location
// EXTERNAL), as large models are saved.

#include "ir/Tensor.h"

#include <string>

namespace onnx {
class TensorProto;
}

namespace tcx {

// Reads the external data of `proto`, a tensor of `type`. The location must
// stay inside `baseDir`; the offset and length are checked against the file
// and the type before the tensor is allocated.
Tensor readExternalData(const onnx::TensorProto& proto, const std::string& baseDir, TensorType type);

} // namespace tcx
