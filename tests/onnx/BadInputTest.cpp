// Malformed, unsupported and inconsistent models: each raises an Error of
// the right kind whose message names the file and, where there is one, the
// node and its op. Run under AddressSanitizer too (the asan preset).

#include "OnnxTestUtil.h"

#include "onnx/TensorProto.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tcx;
using namespace tcx::test;

namespace {

// x: f32[2,3] -> Relu -> y, with room for one more node.
OnnxModel reluModel() {
  OnnxModel m;
  m.input("x", DType::F32, {2, 3});
  m.node("Relu", {"x"}, {"y"}, "relu");
  m.output("y", DType::F32, {2, 3});
  return m;
}

std::string validModelBytes() {
  OnnxModel m = reluModel();
  m.initializer("w", Tensor::filled(DType::F32, {64}, 0.5));
  m.node("Add", {"y", "w"}, {"z"}, "add");
  return m.bytes();
}

void requireImportError(const OnnxModel& m, ErrorKind kind, const std::vector<std::string>& fragments) {
  requireError([&] { m.import(); }, kind, fragments);
}

} // namespace

TEST_CASE("files that are not ONNX models", "[onnx][bad]") {
  ScratchDir dir;
  SECTION("a nonexistent file") {
    requireError([&] { importOnnx(dir.file("absent.onnx")); }, ErrorKind::Io, {"absent.onnx"});
  }
  SECTION("a folder") {
    requireError([&] { importOnnx(dir.path().string()); }, ErrorKind::Io, {"folder"});
  }
  SECTION("an empty file") {
    writeBytes(dir.file("empty.onnx"), "");
    requireError([&] { importOnnx(dir.file("empty.onnx")); }, ErrorKind::InvalidModel,
                 {"empty.onnx", "not a valid ONNX model"});
  }
  SECTION("a truncated file") {
    std::string bytes = validModelBytes();
    writeBytes(dir.file("half.onnx"), bytes.substr(0, bytes.size() / 2));
    requireError([&] { importOnnx(dir.file("half.onnx")); }, ErrorKind::InvalidModel,
                 {"half.onnx", "not a valid ONNX model"});
  }
  SECTION("random bytes") {
    std::mt19937 rng(42);
    for (int trial = 0; trial < 20; ++trial) {
      std::string bytes(1 + rng() % 4096, '\0');
      for (char& c : bytes) c = static_cast<char>(rng());
      writeBytes(dir.file("random.onnx"), bytes);
      requireError([&] { importOnnx(dir.file("random.onnx")); }, ErrorKind::InvalidModel,
                   {"random.onnx", "not a valid ONNX model"});
    }
  }
  SECTION("no default-domain opset") {
    OnnxModel m = reluModel();
    m.proto().mutable_opset_import(0)->set_domain("com.example");
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "default ONNX domain"});
  }
}

TEST_CASE("unsupported ops and attributes", "[onnx][bad]") {
  SECTION("an op tcx lacks") {
    OnnxModel m = reluModel();
    m.node("NonMaxSuppression", {"y"}, {"z"}, "nms");
    requireImportError(m, ErrorKind::Unsupported, {"model.onnx", "node 'nms' (NonMaxSuppression)", "not supported"});
  }
  SECTION("an op of another domain") {
    OnnxModel m = reluModel();
    m.node("Relu", {"y"}, {"z"}, "custom").set_domain("com.microsoft");
    requireImportError(m, ErrorKind::Unsupported, {"model.onnx", "node 'custom' (Relu)", "com.microsoft"});
  }
  SECTION("an unknown attribute") {
    OnnxModel m = reluModel();
    addAttr(*m.proto().mutable_graph()->mutable_node(0), "gamma", 2.0f);
    requireImportError(m, ErrorKind::Unsupported, {"model.onnx", "node 'relu' (Relu)", "attribute 'gamma'"});
  }
  SECTION("an attribute of the wrong kind") {
    OnnxModel m = reluModel();
    addAttr(m.node("Softmax", {"y"}, {"z"}, "softmax"), "axis", 1.0f);
    requireImportError(m, ErrorKind::InvalidModel,
                       {"model.onnx", "node 'softmax' (Softmax)", "attribute 'axis' is of kind float, expected int"});
  }
  SECTION("a missing required attribute") {
    OnnxModel m = reluModel();
    m.node("Cast", {"y"}, {"z"}, "cast");
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "node 'cast' (Cast)", "'to'"});
  }
  SECTION("a graph-valued attribute") {
    OnnxModel m = reluModel();
    onnx::AttributeProto* body = m.proto().mutable_graph()->mutable_node(0)->add_attribute();
    body->set_name("body");
    body->set_type(onnx::AttributeProto::GRAPH);
    body->mutable_g()->set_name("subgraph");
    requireImportError(m, ErrorKind::Unsupported, {"model.onnx", "node 'relu' (Relu)", "GRAPH"});
  }
  SECTION("a missing required input") {
    OnnxModel m = reluModel();
    m.node("MatMul", {"y"}, {"z"}, "matmul");
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "node 'matmul' (MatMul)", "required input 1"});
  }
  SECTION("an unnamed node is named after its op and position") {
    OnnxModel m = reluModel();
    m.node("NonMaxSuppression", {"y"}, {"z"});
    requireImportError(m, ErrorKind::Unsupported, {"model.onnx", "node 'NonMaxSuppression_1' (NonMaxSuppression)"});
  }
}

TEST_CASE("inconsistent graphs", "[onnx][bad]") {
  SECTION("a cycle") {
    OnnxModel m;
    m.input("x", DType::F32, {2});
    m.node("Add", {"x", "b"}, {"a"}, "first");
    m.node("Neg", {"a"}, {"b"}, "second");
    m.output("b", DType::F32, {2});
    requireImportError(m, ErrorKind::InvalidModel,
                       {"model.onnx", "cycle", "node 'first' (Add)", "node 'second' (Neg)"});
  }
  SECTION("an undefined operand") {
    OnnxModel m = reluModel();
    m.node("Add", {"y", "ghost"}, {"z"}, "add");
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "node 'add' (Add)", "'ghost' is not defined"});
  }
  SECTION("a value defined twice") {
    OnnxModel m = reluModel();
    m.node("Neg", {"x"}, {"y"}, "again");
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "node 'again' (Neg)", "'y' is defined twice"});
  }
  SECTION("an undefined graph output") {
    OnnxModel m = reluModel();
    m.output("nowhere", DType::F32, {2, 3});
    requireImportError(m, ErrorKind::InvalidModel, {"model.onnx", "graph output 'nowhere'"});
  }
  SECTION("a declared output type that inference contradicts") {
    OnnxModel m;
    m.input("x", DType::F32, {2, 3});
    m.node("Relu", {"x"}, {"y"}, "relu");
    m.output("y", DType::F32, {3, 2});
    requireImportError(m, ErrorKind::ShapeInference,
                       {"model.onnx", "graph output 'y'", "node 'relu' (Relu)", "f32[3,2]", "f32[2,3]"});
    m.proto().mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
        dtypeToOnnx(DType::F16));
    m.proto().mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->clear_shape();
    requireImportError(m, ErrorKind::ShapeInference, {"graph output 'y'", "f16"});
  }
  SECTION("an operand type the op rejects") {
    OnnxModel m;
    m.input("a", DType::F32, {2, 3});
    m.input("b", DType::F32, {4, 5});
    m.node("MatMul", {"a", "b"}, {"y"}, "matmul");
    m.output("y", DType::F32, {});
    requireImportError(m, ErrorKind::ShapeInference, {"model.onnx", "node 'matmul' (MatMul)"});
  }
}

TEST_CASE("shapes tcx cannot make static", "[onnx][bad]") {
  SECTION("a Reshape whose shape is a graph input") {
    OnnxModel m;
    m.input("x", DType::F32, {2, 3});
    m.input("shape", DType::I64, {2});
    m.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
    m.output("y", DType::F32, {3, 2});
    requireImportError(m, ErrorKind::DataDependentShape, {"model.onnx", "node 'reshape' (Reshape)"});
    ImportOptions options;
    options.inputBindings["shape"] = Tensor::fromVector<int64_t>({2}, {3, 2});
    REQUIRE(m.import(options).nodes()[0]->output(0)->type() == TensorType{DType::F32, {3, 2}});
  }
  SECTION("an unbound symbolic dimension") {
    OnnxModel m;
    m.input("x", DType::F32, {"batch", 3});
    m.node("Relu", {"x"}, {"y"}, "relu");
    m.output("y", DType::F32, {"batch", 3});
    requireImportError(m, ErrorKind::ShapeInference,
                       {"model.onnx", "input 'x' dimension 0 is symbolic ('batch'); bind it with --dim batch=N"});
    ImportOptions options;
    options.dimBindings["batch"] = 4;
    REQUIRE(m.import(options).inputs()[0]->type() == TensorType{DType::F32, {4, 3}});
  }
  SECTION("a dimension with neither size nor name") {
    OnnxModel m = reluModel();
    m.proto()
        .mutable_graph()
        ->mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(1)
        ->clear_dim_value();
    requireImportError(m, ErrorKind::ShapeInference, {"model.onnx", "input 'x' dimension 1 has no size"});
  }
}

TEST_CASE("input bindings", "[onnx][bad]") {
  OnnxModel m = reluModel();
  ImportOptions options;
  SECTION("of the wrong type") {
    options.inputBindings["x"] = Tensor::filled(DType::F32, {3, 2}, 1.0);
    requireError([&] { m.import(options); }, ErrorKind::InvalidArgument,
                 {"model.onnx", "input 'x'", "f32[3,2]", "f32[2,3]"});
  }
  SECTION("to a name that is no input") {
    options.inputBindings["y"] = Tensor::filled(DType::F32, {2, 3}, 1.0);
    requireError([&] { m.import(options); }, ErrorKind::InvalidArgument, {"model.onnx", "'y'", "no graph input"});
  }
  SECTION("that make the graph constant") {
    options.inputBindings["x"] = Tensor::filled(DType::F32, {2, 3}, -1.0);
    Graph g = m.import(options);
    REQUIRE(g.inputs().empty());
    REQUIRE(runGraph(g)[0].identicalTo(Tensor::filled(DType::F32, {2, 3}, 0.0)));
  }
}

TEST_CASE("external data of a model", "[onnx][bad]") {
  ScratchDir dir;
  std::vector<float> w = {1, 2, 3, 4, 5, 6};
  writeBytes(dir.file("w.bin"), std::string(reinterpret_cast<const char*>(w.data()), w.size() * sizeof(float)));
  auto model = [&](const std::string& location, bool inConstantNode) {
    onnx::TensorProto t;
    tensorToProto(Tensor::fromVector<float>({2, 3}, w), "w", t);
    t.clear_raw_data();
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    onnx::StringStringEntryProto* entry = t.add_external_data();
    entry->set_key("location");
    entry->set_value(location);
    OnnxModel m = reluModel();
    if (inConstantNode) {
      onnx::NodeProto& c = m.node("Constant", {}, {"w"}, "weights");
      onnx::AttributeProto* value = c.add_attribute();
      value->set_name("value");
      value->set_type(onnx::AttributeProto::TENSOR);
      *value->mutable_t() = t;
    } else {
      *m.proto().mutable_graph()->add_initializer() = t;
    }
    m.node("Add", {"y", "w"}, {"z"}, "add");
    m.output("z", DType::F32, {2, 3});
    writeBytes(dir.file("model.onnx"), m.bytes());
    return dir.file("model.onnx");
  };
  SECTION("read relative to the model") {
    for (bool inConstantNode : {false, true}) {
      Graph g = importOnnx(model("w.bin", inConstantNode));
      Tensor x = Tensor::filled(DType::F32, {2, 3}, 1.0);
      REQUIRE(runGraph(g, {{"x", x}})[1].identicalTo(Tensor::fromVector<float>({2, 3}, {2, 3, 4, 5, 6, 7})));
    }
  }
  SECTION("a missing file") {
    requireError([&] { importOnnx(model("absent.bin", false)); }, ErrorKind::Io,
                 {"model.onnx", "tensor 'w'", "absent.bin"});
    requireError([&] { importOnnx(model("absent.bin", true)); }, ErrorKind::Io,
                 {"model.onnx", "node 'weights' (Constant)", "absent.bin"});
  }
  SECTION("a file too short") {
    writeBytes(dir.file("short.bin"), std::string(20, '\0'));
    requireError([&] { importOnnx(model("short.bin", false)); }, ErrorKind::InvalidModel,
                 {"model.onnx", "tensor 'w'", "short.bin", "too short"});
    requireError([&] { importOnnx(model("short.bin", true)); }, ErrorKind::InvalidModel,
                 {"model.onnx", "node 'weights' (Constant)", "short.bin", "too short"});
  }
}
