#include "onnx/ValueTypes.h"

#include "onnx/CheckedType.h"
#include "onnx/ElemType.h"

#include <onnx/onnx_pb.h>

#include <optional>

namespace tcx {

namespace {

const onnx::TypeProto_Tensor& tensorType(const onnx::ValueInfoProto& info) {
  TCX_CHECK(info.type().has_tensor_type(), ErrorKind::Unsupported, "'{}' is not a tensor", info.name());
  return info.type().tensor_type();
}

// The size of a declared dimension, if fixed or bound.
std::optional<int64_t> knownSize(const onnx::TensorShapeProto_Dimension& dim, const DimBindings& dims) {
  if (dim.has_dim_value()) return dim.dim_value();
  if (dim.has_dim_param()) {
    auto it = dims.find(dim.dim_param());
    if (it != dims.end()) return it->second;
  }
  return std::nullopt;
}

// "f32[batch,3]": a declaration as the user wrote it.
std::string declaredString(const onnx::TypeProto_Tensor& t) {
  std::optional<DType> dtype = dtypeFromOnnx(t.elem_type());
  std::string s = dtype ? std::string(dtypeName(*dtype)) : onnxElemTypeName(t.elem_type());
  if (!t.has_shape()) return s + "[...]";
  s += "[";
  for (int i = 0; i < t.shape().dim_size(); ++i) {
    const onnx::TensorShapeProto_Dimension& dim = t.shape().dim(i);
    s += i ? "," : "";
    s += dim.has_dim_value() ? std::to_string(dim.dim_value()) : dim.has_dim_param() ? dim.dim_param() : "?";
  }
  return s + "]";
}

// Whether `type` fits the declaration, where undeclared parts fit anything.
bool fits(const onnx::TypeProto_Tensor& declared, const TensorType& type, const DimBindings& dims) {
  if (declared.elem_type() != 0 && declared.elem_type() != dtypeToOnnx(type.dtype)) return false;
  if (!declared.has_shape()) return true;
  if (declared.shape().dim_size() != type.rank()) return false;
  for (int i = 0; i < declared.shape().dim_size(); ++i) {
    std::optional<int64_t> size = knownSize(declared.shape().dim(i), dims);
    if (size && *size != type.shape[i]) return false;
  }
  return true;
}

} // namespace

TensorType inputType(const onnx::ValueInfoProto& info, const DimBindings& dims) {
  const onnx::TypeProto_Tensor& t = tensorType(info);
  TCX_CHECK(t.has_shape(), ErrorKind::ShapeInference, "input '{}' has no declared shape; bind it to a tensor value",
            info.name());
  Shape shape;
  for (int i = 0; i < t.shape().dim_size(); ++i) {
    const onnx::TensorShapeProto_Dimension& dim = t.shape().dim(i);
    std::optional<int64_t> size = knownSize(dim, dims);
    TCX_CHECK(size || !dim.has_dim_param(), ErrorKind::ShapeInference,
              "input '{}' dimension {} is symbolic ('{}'); bind it with --dim {}=N", info.name(), i, dim.dim_param(),
              dim.dim_param());
    TCX_CHECK(size, ErrorKind::ShapeInference, "input '{}' dimension {} has no size; bind the input to a tensor value",
              info.name(), i);
    shape.push_back(*size);
  }
  try {
    return checkedTensorType(dtypeOfElemType(t.elem_type()), std::move(shape));
  } catch (const Error& e) {
    throw e.withContext(fmt::format("input '{}'", info.name()));
  }
}

void checkInputBinding(const onnx::ValueInfoProto& info, const Tensor& value, const DimBindings& dims) {
  const onnx::TypeProto_Tensor& declared = tensorType(info);
  TCX_CHECK(fits(declared, value.type(), dims), ErrorKind::InvalidArgument,
            "the tensor bound to input '{}' is {}, but the input is declared as {}", info.name(),
            value.type().toString(), declaredString(declared));
}

void checkOutputType(const onnx::ValueInfoProto& info, const Value& value, const DimBindings& dims) {
  if (!info.type().has_tensor_type()) return;
  const onnx::TypeProto_Tensor& declared = info.type().tensor_type();
  std::string producer = value.producer() ? " (the result of " + value.producer()->describe() + ")" : "";
  TCX_CHECK(fits(declared, value.type(), dims), ErrorKind::ShapeInference,
            "graph output '{}'{} is declared as {} but inferred as {}", info.name(), producer, declaredString(declared),
            value.type().toString());
}

} // namespace tcx
