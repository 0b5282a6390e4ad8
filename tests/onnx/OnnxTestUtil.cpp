#include "OnnxTestUtil.h"

#include "onnx/AttributeProto.h"
#include "onnx/TensorProto.h"
#include "ops/Evaluate.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <unistd.h>
#include <unordered_map>

namespace tcx::test {

namespace {

void setValueInfo(onnx::ValueInfoProto& info, const std::string& name, DType dtype, const std::vector<Dim>& dims) {
  info.set_name(name);
  onnx::TypeProto_Tensor* t = info.mutable_type()->mutable_tensor_type();
  t->set_elem_type(dtypeToOnnx(dtype));
  onnx::TensorShapeProto* shape = t->mutable_shape();
  for (const Dim& d : dims) {
    if (d.param.empty())
      shape->add_dim()->set_dim_value(d.size);
    else
      shape->add_dim()->set_dim_param(d.param);
  }
}

} // namespace

OnnxModel::OnnxModel(int64_t opset) {
  proto_.set_ir_version(8);
  onnx::OperatorSetIdProto* id = proto_.add_opset_import();
  id->set_domain("");
  id->set_version(opset);
  proto_.mutable_graph()->set_name("test");
}

void OnnxModel::input(const std::string& name, DType dtype, const std::vector<Dim>& dims) {
  setValueInfo(*proto_.mutable_graph()->add_input(), name, dtype, dims);
}

void OnnxModel::output(const std::string& name, DType dtype, const std::vector<Dim>& dims) {
  setValueInfo(*proto_.mutable_graph()->add_output(), name, dtype, dims);
}

void OnnxModel::initializer(const std::string& name, const Tensor& value) {
  tensorToProto(value, name, *proto_.mutable_graph()->add_initializer());
}

onnx::NodeProto& OnnxModel::node(const std::string& opType, const std::vector<std::string>& inputs,
                                 const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto* n = proto_.mutable_graph()->add_node();
  n->set_op_type(opType);
  n->set_name(name);
  for (const std::string& in : inputs) n->add_input(in);
  for (const std::string& out : outputs) n->add_output(out);
  return *n;
}

Graph OnnxModel::import(const ImportOptions& options) const { return importOnnxBytes(bytes(), "model.onnx", options); }

void addAttr(onnx::NodeProto& node, const std::string& name, Attribute value) {
  attributeToProto(name, value, *node.add_attribute());
}

ScratchDir::ScratchDir() {
  static std::atomic<int> counter = 0;
  path_ = std::filesystem::temp_directory_path() /
          ("tcx-onnx-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<Tensor> runGraph(const Graph& graph, const std::map<std::string, Tensor>& inputs) {
  std::unordered_map<const Value*, Tensor> computed;
  auto valueOf = [&](const Value* v) -> const Tensor* {
    if (!v) return nullptr;
    if (v->isConstant()) return &v->constant();
    return v->isGraphInput() ? &inputs.at(v->name()) : &computed.at(v);
  };
  for (const Node* node : graph.nodes()) {
    std::vector<const Tensor*> operands;
    for (const Value* in : node->inputs()) operands.push_back(valueOf(in));
    std::vector<Tensor> results = evaluateNode(*node, operands);
    for (size_t i = 0; i < results.size(); ++i) computed[node->output(i)] = results[i];
  }
  std::vector<Tensor> outputs;
  for (const Value* out : graph.outputs()) outputs.push_back(*valueOf(out));
  return outputs;
}

void requireError(const std::function<void()>& f, ErrorKind kind, const std::vector<std::string>& fragments) {
  try {
    f();
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(std::string(errorKindName(e.kind())) == errorKindName(kind));
    for (const std::string& fragment : fragments) CHECK_THAT(e.what(), Catch::Matchers::Contains(fragment));
    return;
  }
  FAIL("no error was raised");
}

std::string nodeTestDir(const std::string& test) { return "/usr/share/libonnx-testdata/data/node/" + test; }

Tensor nodeTestTensor(const std::string& test, const std::string& kind, int index) {
  return readTensorFile(nodeTestDir(test) + "/test_data_set_0/" + kind + "_" + std::to_string(index) + ".pb").tensor;
}

} // namespace tcx::test
