#include "onnx/OnnxExporter.h"

#include "ir/Graph.h"
#include "onnx/AttributeProto.h"
#include "onnx/TensorProto.h"
#include "support/AtomicFile.h"

#include <onnx/onnx_pb.h>

namespace tcx {

namespace {

constexpr int64_t kIrVersion = 8;
constexpr int64_t kMinOpset = 18;
constexpr int64_t kMaxOpset = 21;

void writeValueInfo(const Value& value, onnx::ValueInfoProto& info) {
  TCX_CHECK(value.hasType(), ErrorKind::InvalidArgument, "value '{}' has no type; infer the graph first", value.name());
  info.set_name(value.name());
  onnx::TypeProto_Tensor* tensorType = info.mutable_type()->mutable_tensor_type();
  tensorType->set_elem_type(dtypeToOnnx(value.type().dtype));
  onnx::TensorShapeProto* shape = tensorType->mutable_shape();
  for (int64_t d : value.type().shape) shape->add_dim()->set_dim_value(d);
}

void writeNode(const Node& node, onnx::NodeProto& proto) {
  proto.set_name(node.name());
  proto.set_op_type(node.opType());
  size_t numInputs = node.numInputs();
  while (numInputs > 0 && !node.input(numInputs - 1)) --numInputs; // trailing omitted inputs need no ""
  for (size_t i = 0; i < numInputs; ++i) proto.add_input(node.input(i) ? node.input(i)->name() : "");
  for (const Value* out : node.outputs()) proto.add_output(out->name());
  for (const auto& [name, attr] : node.attrs().all()) attributeToProto(name, attr, *proto.add_attribute());
}

void writeGraph(const Graph& graph, onnx::GraphProto& proto) {
  proto.set_name(graph.name.empty() ? "tcx" : graph.name);
  for (const Value* in : graph.inputs()) writeValueInfo(*in, *proto.add_input());
  for (const Value* v : graph.values())
    if (v->isConstant() && (!v->uses().empty() || v->isGraphOutput()))
      tensorToProto(v->constant(), v->name(), *proto.add_initializer());
  for (const Node* node : graph.nodes()) writeNode(*node, *proto.add_node());
  for (const Value* out : graph.outputs()) writeValueInfo(*out, *proto.add_output());
}

} // namespace

std::string exportOnnxBytes(const Graph& graph, int64_t opset) {
  TCX_CHECK(opset >= kMinOpset && opset <= kMaxOpset, ErrorKind::InvalidArgument,
            "cannot export opset {}: tcx writes opsets {} to {}", opset, kMinOpset, kMaxOpset);
  onnx::ModelProto model;
  model.set_ir_version(kIrVersion);
  model.set_producer_name("tcx");
  onnx::OperatorSetIdProto* defaultDomain = model.add_opset_import();
  defaultDomain->set_domain("");
  defaultDomain->set_version(opset);
  writeGraph(graph, *model.mutable_graph());
  // ONNX messages have no map fields, so protobuf's serialisation is
  // deterministic as it is.
  std::string bytes;
  TCX_CHECK(model.SerializeToString(&bytes), ErrorKind::Unsupported,
            "the model is larger than the 2 GiB that a protobuf message can hold");
  return bytes;
}

void exportOnnx(const Graph& graph, const std::string& path, int64_t opset) {
  std::string bytes;
  try {
    bytes = exportOnnxBytes(graph, opset);
  } catch (const Error& e) {
    throw e.withContext(path);
  }
  writeFileAtomically(path, bytes);
}

} // namespace tcx
