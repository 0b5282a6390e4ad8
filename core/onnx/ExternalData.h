#pragma once
// Tensor data stored outside the model file (TensorProto data_location
// EXTERNAL), as large models are saved.

#include <cstddef>
#include <span>
#include <string>

namespace onnx {
class TensorProto;
}

namespace tcx {

// Reads the bytes of `proto`'s external data into `dst`, which has the
// tensor's exact byte size. The location must stay inside `baseDir`; the
// offset and length are checked against the file and the tensor.
void readExternalData(const onnx::TensorProto& proto, const std::string& baseDir, std::span<std::byte> dst);

} // namespace tcx
