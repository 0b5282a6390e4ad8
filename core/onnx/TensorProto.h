#pragma once
// Conversion between ONNX TensorProto messages and tcx Tensors, and the .pb
// tensor files of ONNX's test data (input_0.pb, output_0.pb, ...).

#include "ir/Tensor.h"

#include <string>

namespace onnx {
class TensorProto;
}

namespace tcx {

// The tensor that `proto` holds: raw_data, the typed fields (float_data,
// int32_data, which also carries f16/bf16/i8/u8/bool bits, int64_data,
// double_data; little-endian) or external data, which is read from a file
// whose location is relative to `baseDir`. Raises InvalidModel for malformed
// or short data, Unsupported for element types tcx lacks, Io for an external
// file that cannot be opened.
Tensor tensorFromProto(const onnx::TensorProto& proto, const std::string& baseDir);

// Fills `proto` with `tensor` as raw_data.
void tensorToProto(const Tensor& tensor, const std::string& name, onnx::TensorProto& proto);

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// One serialised TensorProto per file, as in ONNX's test_data_set folders.
NamedTensor readTensorFile(const std::string& path);
void writeTensorFile(const std::string& path, const Tensor& tensor, const std::string& name);

} // namespace tcx
