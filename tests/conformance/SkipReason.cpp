#include "SkipReason.h"

#include "ir/DType.h"
#include "onnx/ElemType.h"
#include "ops/OpRegistry.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <set>

namespace tcx::conformance {

namespace {

constexpr const char* kTrainingMode = "training_mode";

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// The model's version of ONNX's default domain.
int defaultOpset(const onnx::ModelProto& model) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import())
    if (isDefaultDomain(opset.domain())) return static_cast<int>(opset.version());
  return 1;
}

} // namespace

const char* skipReasonName(SkipReason reason) {
  switch (reason) {
  case SkipReason::OpNotRegistered: return "op-not-registered";
  case SkipReason::NonTensorValue: return "non-tensor-value";
  case SkipReason::ElemTypeNotInTcx: return "elem-type-not-in-tcx";
  case SkipReason::TrainingMode: return "training-mode";
  case SkipReason::TestDataElemType: return "test-data-elem-type";
  case SkipReason::NoTestData: return "no-test-data";
  }
  return "?";
}

std::optional<Skip> structuralSkip(const onnx::ModelProto& model) {
  std::set<std::string> ops, elemTypes;
  bool nonTensor = false;
  auto checkElemType = [&](int32_t elemType) {
    if (!dtypeFromOnnx(elemType)) elemTypes.insert(onnxElemTypeName(elemType));
  };
  auto checkType = [&](const onnx::TypeProto& type) {
    if (type.has_tensor_type())
      checkElemType(type.tensor_type().elem_type());
    else
      nonTensor = true;
  };
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (!isDefaultDomain(node.domain()))
      ops.insert(node.domain() + "." + node.op_type());
    else if (!OpRegistry::instance().find(node.op_type()))
      ops.insert(node.op_type());
    for (const onnx::AttributeProto& attr : node.attribute())
      if (attr.has_t()) checkElemType(attr.t().data_type());
  }
  for (const auto& v : model.graph().input()) checkType(v.type());
  for (const auto& v : model.graph().output()) checkType(v.type());
  for (const auto& v : model.graph().value_info()) checkType(v.type());

  std::string detail;
  auto append = [&](const std::string& part) { detail += (detail.empty() ? "" : ", ") + part; };
  for (const std::string& op : ops) append("op " + op);
  if (nonTensor) append("non-tensor value");
  for (const std::string& t : elemTypes) append("element type " + t);
  if (!ops.empty()) return Skip{SkipReason::OpNotRegistered, detail};
  if (nonTensor) return Skip{SkipReason::NonTensorValue, detail};
  if (!elemTypes.empty()) return Skip{SkipReason::ElemTypeNotInTcx, detail};
  return std::nullopt;
}

bool asksForTrainingMode(const onnx::ModelProto& model) {
  const int opset = defaultOpset(model);
  for (const onnx::NodeProto& node : model.graph().node()) {
    for (const onnx::AttributeProto& attr : node.attribute())
      if (attr.name() == kTrainingMode && attr.i() != 0) return true;
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(node.op_type(), opset, node.domain());
    if (!schema) continue;
    const auto& formal = schema->inputs();
    for (int i = 0; i < node.input_size() && static_cast<size_t>(i) < formal.size(); ++i)
      if (formal[i].GetName() == kTrainingMode && !node.input(i).empty()) return true;
  }
  return false;
}

} // namespace tcx::conformance
