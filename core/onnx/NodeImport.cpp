#include "onnx/NodeImport.h"

#include "onnx/AttributeProto.h"
#include "ops/OpDef.h"

#include <onnx/onnx_pb.h>

namespace tcx {

namespace {

void dropTrailingEmpty(std::vector<std::string>& names) {
  while (!names.empty() && names.back().empty()) names.pop_back();
}

void checkAttributes(const ImportedNode& node, const OpDef& op) {
  for (const auto& [name, attr] : node.attrs.all()) {
    const AttrSpec* spec = op.findAttr(name);
    TCX_CHECK(spec, ErrorKind::Unsupported, "attribute '{}' is not supported by tcx's {}", name, op.name);
    TCX_CHECK(attr.kind() == spec->kind, ErrorKind::InvalidModel, "attribute '{}' is of kind {}, expected {}", name,
              attrKindName(attr.kind()), attrKindName(spec->kind));
  }
  for (const AttrSpec& spec : op.attributes)
    TCX_CHECK(!spec.required || node.attrs.has(spec.name), ErrorKind::InvalidModel,
              "required attribute '{}' is missing", spec.name);
}

void checkArity(const ImportedNode& node, const OpDef& op) {
  size_t numInputs = node.inputs.size();
  TCX_CHECK(op.maxInputs == OpDef::kVariadic || numInputs <= static_cast<size_t>(op.maxInputs), ErrorKind::Unsupported,
            "{} inputs given; tcx's {} takes at most {}", numInputs, op.name, op.maxInputs);
  for (size_t i = 0; i < static_cast<size_t>(op.minInputs); ++i)
    TCX_CHECK(i < numInputs && !node.inputs[i].empty(), ErrorKind::InvalidModel,
              "required input {} is missing ({} takes at least {})", i, op.name, op.minInputs);
  size_t numOutputs = node.outputs.size();
  TCX_CHECK(numOutputs >= static_cast<size_t>(op.minOutputs), ErrorKind::InvalidModel,
            "{} results given; {} has at least {}", numOutputs, op.name, op.minOutputs);
  TCX_CHECK(op.maxOutputs == OpDef::kVariadic || numOutputs <= static_cast<size_t>(op.maxOutputs),
            ErrorKind::Unsupported, "{} results given; tcx's {} has at most {}", numOutputs, op.name, op.maxOutputs);
}

} // namespace

ImportedNode readNode(const onnx::NodeProto& proto, const std::string& name, const std::string& baseDir,
                      NameTable& valueNames) {
  ImportedNode node;
  node.name = name;
  node.opType = proto.op_type();
  node.inputs.assign(proto.input().begin(), proto.input().end());
  node.outputs.assign(proto.output().begin(), proto.output().end());
  dropTrailingEmpty(node.inputs);
  dropTrailingEmpty(node.outputs);
  for (std::string& out : node.outputs)
    if (out.empty()) out = valueNames.fresh(name + "_unused");
  for (const onnx::AttributeProto& attr : proto.attribute()) {
    TCX_CHECK(!node.attrs.has(attr.name()), ErrorKind::InvalidModel, "attribute '{}' is given twice", attr.name());
    node.attrs.set(attr.name(), attributeFromProto(attr, baseDir));
  }
  return node;
}

void checkAgainstOpDef(const ImportedNode& node, const OpDef& op) {
  checkAttributes(node, op);
  checkArity(node, op);
}

} // namespace tcx
