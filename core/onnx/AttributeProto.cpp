#include "onnx/AttributeProto.h"

#include "onnx/TensorProto.h"

#include <onnx/onnx_pb.h>

namespace tcx {

namespace {

using onnx::AttributeProto;

// Models from before IR version 2 leave `type` unset; the field that holds
// the value tells it.
AttributeProto::AttributeType typeOf(const AttributeProto& proto) {
  if (proto.type() != AttributeProto::UNDEFINED) return proto.type();
  if (proto.has_f()) return AttributeProto::FLOAT;
  if (proto.has_i()) return AttributeProto::INT;
  if (proto.has_s()) return AttributeProto::STRING;
  if (proto.has_t()) return AttributeProto::TENSOR;
  if (proto.has_g()) return AttributeProto::GRAPH;
  if (proto.floats_size()) return AttributeProto::FLOATS;
  if (proto.ints_size()) return AttributeProto::INTS;
  if (proto.strings_size()) return AttributeProto::STRINGS;
  raise(ErrorKind::InvalidModel, "attribute '{}' has no type and no value", proto.name());
}

template <typename T, typename Field> std::vector<T> toVector(const Field& field) {
  return std::vector<T>(field.begin(), field.end());
}

} // namespace

Attribute attributeFromProto(const AttributeProto& proto, const std::string& baseDir) {
  TCX_CHECK(proto.ref_attr_name().empty(), ErrorKind::Unsupported,
            "attribute '{}' refers to a function attribute, which is not supported", proto.name());
  AttributeProto::AttributeType type = typeOf(proto);
  switch (type) {
  case AttributeProto::FLOAT: return proto.f();
  case AttributeProto::INT: return static_cast<int64_t>(proto.i());
  case AttributeProto::STRING: return proto.s();
  case AttributeProto::TENSOR: return tensorFromProto(proto.t(), baseDir);
  case AttributeProto::FLOATS: return toVector<float>(proto.floats());
  case AttributeProto::INTS: return toVector<int64_t>(proto.ints());
  case AttributeProto::STRINGS: return toVector<std::string>(proto.strings());
  case AttributeProto::UNDEFINED: // typeOf never returns it
  case AttributeProto::GRAPH:
  case AttributeProto::SPARSE_TENSOR:
  case AttributeProto::TYPE_PROTO:
  case AttributeProto::TENSORS:
  case AttributeProto::GRAPHS:
  case AttributeProto::SPARSE_TENSORS:
  case AttributeProto::TYPE_PROTOS: break;
  }
  raise(ErrorKind::Unsupported, "attribute '{}' is of kind {}, which is not supported", proto.name(),
        AttributeProto::AttributeType_Name(type));
}

void attributeToProto(const std::string& name, const Attribute& attr, AttributeProto& proto) {
  proto.Clear();
  proto.set_name(name);
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, int64_t>) {
          proto.set_type(AttributeProto::INT);
          proto.set_i(v);
        } else if constexpr (std::is_same_v<V, float>) {
          proto.set_type(AttributeProto::FLOAT);
          proto.set_f(v);
        } else if constexpr (std::is_same_v<V, std::string>) {
          proto.set_type(AttributeProto::STRING);
          proto.set_s(v);
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          proto.set_type(AttributeProto::INTS);
          proto.mutable_ints()->Add(v.begin(), v.end());
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          proto.set_type(AttributeProto::FLOATS);
          proto.mutable_floats()->Add(v.begin(), v.end());
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          proto.set_type(AttributeProto::STRINGS);
          for (const std::string& s : v) proto.add_strings(s);
        } else {
          proto.set_type(AttributeProto::TENSOR);
          tensorToProto(v, "", *proto.mutable_t());
        }
      },
      attr.storage());
}

} // namespace tcx
