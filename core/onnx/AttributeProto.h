#pragma once
// Conversion between ONNX AttributeProto messages and tcx Attributes.

#include "ir/Attribute.h"

#include <string>

namespace onnx {
class AttributeProto;
}

namespace tcx {

// The value of `proto`; tensor attributes may use external data relative to
// `baseDir`. Raises Unsupported for kinds tcx lacks (graphs, sparse tensors,
// type protos, references to function attributes).
Attribute attributeFromProto(const onnx::AttributeProto& proto, const std::string& baseDir);

void attributeToProto(const std::string& name, const Attribute& attr, onnx::AttributeProto& proto);

} // namespace tcx
