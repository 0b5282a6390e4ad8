#include "onnx/TensorProto.h"

#include "ir/Dispatch.h"
#include "onnx/CheckedType.h"
#include "onnx/ElemType.h"
#include "onnx/ExternalData.h"
#include "onnx/Files.h"
#include "support/AtomicFile.h"

#include <onnx/onnx_pb.h>

#include <bit>
#include <cstring>

namespace tcx {

// raw_data and external data are little-endian, and copied as they are.
static_assert(std::endian::native == std::endian::little, "tcx assumes a little-endian host");

namespace {

// Bytes other than 0 and 1 are not valid bools; any nonzero byte means true.
void normalizeBools(Tensor& t) {
  if (t.dtype() != DType::Bool) return;
  std::byte* bytes = t.raw();
  for (int64_t i = 0; i < t.numElements(); ++i) bytes[i] = bytes[i] != std::byte{0} ? std::byte{1} : std::byte{0};
}

// Converts one value of a typed field to the storage type T.
template <typename T, typename Field> T convertValue(Field v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    T out;
    out.bits = static_cast<uint16_t>(v); // int32_data carries the raw 16 bits
    return out;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else {
    return static_cast<T>(v);
  }
}

template <typename T, typename Field>
Tensor fromField(const google::protobuf::RepeatedField<Field>& field, const char* fieldName, TensorType type) {
  TCX_CHECK(field.size() == type.numElements(), ErrorKind::InvalidModel, "{} has {} values for {} elements", fieldName,
            field.size(), type.toString());
  Tensor t(std::move(type));
  std::span<T> out = t.data<T>();
  for (int i = 0; i < field.size(); ++i) out[i] = convertValue<T>(field.Get(i));
  return t;
}

Tensor fromTypedField(const onnx::TensorProto& proto, TensorType type) {
  return dispatchDType(type.dtype, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float>)
      return fromField<T>(proto.float_data(), "float_data", std::move(type));
    else if constexpr (std::is_same_v<T, double>)
      return fromField<T>(proto.double_data(), "double_data", std::move(type));
    else if constexpr (std::is_same_v<T, int64_t>)
      return fromField<T>(proto.int64_data(), "int64_data", std::move(type));
    else
      return fromField<T>(proto.int32_data(), "int32_data", std::move(type));
  });
}

Tensor tensorFromProtoUnnamed(const onnx::TensorProto& proto, const std::string& baseDir) {
  TCX_CHECK(!proto.has_segment(), ErrorKind::Unsupported, "segmented tensors are not supported");
  // The size is compared with the data before anything is allocated.
  TensorType type =
      checkedTensorType(dtypeOfElemType(proto.data_type()), Shape(proto.dims().begin(), proto.dims().end()));
  size_t bytes = type.byteSize();
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    Tensor t = readExternalData(proto, baseDir, std::move(type));
    normalizeBools(t);
    return t;
  }
  if (proto.has_raw_data()) {
    TCX_CHECK(proto.raw_data().size() == bytes, ErrorKind::InvalidModel, "raw_data has {} bytes, {} needs {}",
              proto.raw_data().size(), type.toString(), bytes);
    Tensor t(std::move(type));
    if (bytes != 0) std::memcpy(t.raw(), proto.raw_data().data(), bytes);
    normalizeBools(t);
    return t;
  }
  return fromTypedField(proto, std::move(type));
}

} // namespace

Tensor tensorFromProto(const onnx::TensorProto& proto, const std::string& baseDir) {
  try {
    return tensorFromProtoUnnamed(proto, baseDir);
  } catch (const Error& e) {
    throw e.withContext(proto.name().empty() ? "tensor" : "tensor '" + proto.name() + "'");
  }
}

void tensorToProto(const Tensor& tensor, const std::string& name, onnx::TensorProto& proto) {
  proto.Clear();
  proto.set_name(name);
  for (int64_t d : tensor.shape()) proto.add_dims(d);
  proto.set_data_type(dtypeToOnnx(tensor.dtype()));
  proto.set_raw_data(reinterpret_cast<const char*>(tensor.raw()), tensor.byteSize());
}

NamedTensor readTensorFile(const std::string& path) {
  std::string bytes = readFileBytes(path);
  try {
    onnx::TensorProto proto;
    TCX_CHECK(proto.ParseFromString(bytes), ErrorKind::InvalidModel, "not a valid ONNX tensor file");
    return NamedTensor{proto.name(), tensorFromProto(proto, parentFolder(path))};
  } catch (const Error& e) {
    throw e.withContext(path);
  }
}

void writeTensorFile(const std::string& path, const Tensor& tensor, const std::string& name) {
  onnx::TensorProto proto;
  tensorToProto(tensor, name, proto);
  writeFileAtomically(path, proto.SerializeAsString());
}

} // namespace tcx
