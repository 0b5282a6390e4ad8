// Models of older opsets import into the canonical (newest-opset) form:
// attributes that became operands, and Softmax's former 2-D coercion.

#include "OnnxTestUtil.h"

#include "ops/Printer.h"
#include "onnx/TensorProto.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor floats(Shape shape, std::vector<float> values) { return Tensor::fromVector<float>(std::move(shape), values); }

// A node test's model with its default-domain opset replaced.
std::string withOpset(const std::string& test, int64_t opset) {
  onnx::ModelProto model;
  std::ifstream in(nodeTestDir(test) + "/model.onnx", std::ios::binary);
  REQUIRE(model.ParseFromIstream(&in));
  model.mutable_opset_import(0)->set_version(opset);
  return model.SerializeAsString();
}

std::vector<std::string> opTypes(const Graph& g) {
  std::vector<std::string> ops;
  for (const Node* n : g.nodes()) ops.push_back(n->opType());
  return ops;
}

// Softmax over the rows of x viewed as [rows, size / rows].
Tensor rowSoftmax(const Tensor& x, int64_t rows) {
  int64_t cols = x.numElements() / rows;
  std::vector<float> out(x.numElements());
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(x.elementAsDouble(r * cols + c));
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = static_cast<float>(std::exp(x.elementAsDouble(r * cols + c)) / sum);
  }
  return floats(x.shape(), out);
}

// A one-node model of `opType` at `opset` on input x; the node is returned
// for its attributes.
struct OneNode {
  OneNode(int64_t opset, const std::string& opType, const Tensor& x, std::vector<std::string> outputs = {"y"})
      : model(opset), input(x) {
    model.input("x", x.dtype(), {x.shape().begin(), x.shape().end()});
    node = &model.node(opType, {"x"}, outputs, "legacy");
    for (const std::string& out : outputs) model.proto().mutable_graph()->add_output()->set_name(out);
  }
  std::vector<Tensor> run() { return runGraph(model.import(), {{"x", input}}); }

  OnnxModel model;
  onnx::NodeProto* node;
  Tensor input;
};

} // namespace

TEST_CASE("Softmax before opset 13 normalises over all axes from `axis` on", "[onnx][legacy]") {
  Tensor x = nodeTestTensor("test_softmax_axis_1", "input", 0); // f32[3,4,5]
  SECTION("axis 1 becomes Flatten, Softmax, Reshape") {
    Graph g = importOnnxBytes(withOpset("test_softmax_axis_1", 11), "softmax11.onnx");
    REQUIRE(opTypes(g) == std::vector<std::string>{"Flatten", "Softmax", "Reshape"});
    REQUIRE_CLOSE(runGraph(g, {{"x", x}})[0], rowSoftmax(x, 3), 1e-5, 1e-6);
  }
  SECTION("the default axis was 1") {
    Graph g = importOnnxBytes(withOpset("test_softmax_default_axis", 11), "softmax11.onnx");
    REQUIRE_CLOSE(runGraph(g, {{"x", x}})[0], rowSoftmax(x, 3), 1e-5, 1e-6);
  }
  SECTION("on the last axis the coercion changes nothing") {
    Graph g = importOnnxBytes(withOpset("test_softmax_axis_2", 11), "softmax11.onnx");
    REQUIRE(opTypes(g) == std::vector<std::string>{"Softmax"});
    REQUIRE_CLOSE(runGraph(g, {{"x", x}})[0], nodeTestTensor("test_softmax_axis_2", "output", 0), 1e-5, 1e-6);
  }
  SECTION("axis 0 normalises over everything") {
    Graph g = importOnnxBytes(withOpset("test_softmax_axis_0", 9), "softmax9.onnx");
    REQUIRE_CLOSE(runGraph(g, {{"x", x}})[0], rowSoftmax(x, 1), 1e-5, 1e-6);
  }
}

TEST_CASE("axes attributes become operands", "[onnx][legacy]") {
  Tensor x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  SECTION("ReduceSum before opset 13") {
    OneNode m(11, "ReduceSum", x);
    addAttr(*m.node, "axes", std::vector<int64_t>{1});
    addAttr(*m.node, "keepdims", 0);
    REQUIRE_CLOSE(m.run()[0], floats({2}, {6, 15}), 1e-5, 1e-6);
  }
  SECTION("ReduceMean before opset 18") {
    OneNode m(17, "ReduceMean", x);
    addAttr(*m.node, "axes", std::vector<int64_t>{0});
    REQUIRE_CLOSE(m.run()[0], floats({1, 3}, {2.5f, 3.5f, 4.5f}), 1e-5, 1e-6);
  }
  SECTION("Squeeze and Unsqueeze before opset 13") {
    OneNode squeeze(11, "Squeeze", floats({1, 3}, {1, 2, 3}));
    addAttr(*squeeze.node, "axes", std::vector<int64_t>{0});
    REQUIRE(squeeze.run()[0].shape() == Shape{3});
    OneNode unsqueeze(12, "Unsqueeze", floats({3}, {1, 2, 3}));
    addAttr(*unsqueeze.node, "axes", std::vector<int64_t>{0, -1});
    REQUIRE(unsqueeze.run()[0].shape() == Shape{1, 3, 1});
  }
}

TEST_CASE("Split's sizes and part count", "[onnx][legacy]") {
  Tensor x = floats({6}, {0, 1, 2, 3, 4, 5});
  SECTION("the split attribute before opset 13") {
    OneNode m(11, "Split", x, {"a", "b"});
    addAttr(*m.node, "split", std::vector<int64_t>{2, 4});
    std::vector<Tensor> parts = m.run();
    REQUIRE_CLOSE(parts[0], floats({2}, {0, 1}), 1e-5, 1e-6);
    REQUIRE_CLOSE(parts[1], floats({4}, {2, 3, 4, 5}), 1e-5, 1e-6);
  }
  SECTION("equal parts, one per result, before opset 18") {
    for (int64_t opset : {11, 13}) {
      OneNode m(opset, "Split", x, {"a", "b", "c"});
      std::vector<Tensor> parts = m.run();
      REQUIRE(parts.size() == 3);
      REQUIRE_CLOSE(parts[2], floats({2}, {4, 5}), 1e-5, 1e-6);
    }
  }
}

TEST_CASE("Clip, Pad and Slice attributes become operands", "[onnx][legacy]") {
  SECTION("Clip's min and max before opset 11, in the input's type") {
    OneNode m(10, "Clip", floats({3}, {-1, 3, 8}));
    addAttr(*m.node, "min", 0.0f);
    addAttr(*m.node, "max", 6.0f);
    REQUIRE_CLOSE(m.run()[0], floats({3}, {0, 3, 6}), 1e-5, 1e-6);
    Tensor half = Tensor::fromVector<Half>({2}, {Half(-1.0f), Half(9.0f)});
    OneNode h(10, "Clip", half);
    addAttr(*h.node, "max", 6.0f);
    REQUIRE_CLOSE(h.run()[0], Tensor::fromVector<Half>({2}, {Half(-1.0f), Half(6.0f)}), 1e-5, 1e-6);
  }
  SECTION("Clip of an undeclared intermediate value") {
    OnnxModel m(9);
    m.input("x", DType::F32, {3});
    m.node("Neg", {"x"}, {"n"});
    onnx::NodeProto& clip = m.node("Clip", {"n"}, {"y"});
    addAttr(clip, "min", -2.0f);
    m.proto().mutable_graph()->add_output()->set_name("y");
    REQUIRE_CLOSE(runGraph(m.import(), {{"x", floats({3}, {-1, 3, 8})}})[0], floats({3}, {1, -2, -2}), 1e-5, 1e-6);
  }
  SECTION("Pad's pads and value before opset 11") {
    OneNode m(10, "Pad", floats({2}, {1, 2}));
    addAttr(*m.node, "pads", std::vector<int64_t>{1, 2});
    addAttr(*m.node, "value", 5.0f);
    REQUIRE_CLOSE(m.run()[0], floats({5}, {5, 1, 2, 5, 5}), 1e-5, 1e-6);
    OneNode reflect(7, "Pad", floats({3}, {1, 2, 3}));
    addAttr(*reflect.node, "pads", std::vector<int64_t>{2, 0});
    addAttr(*reflect.node, "mode", "reflect");
    REQUIRE_CLOSE(reflect.run()[0], floats({5}, {3, 2, 1, 2, 3}), 1e-5, 1e-6);
  }
  SECTION("Slice's starts, ends and axes before opset 10") {
    OneNode m(9, "Slice", floats({2, 3}, {1, 2, 3, 4, 5, 6}));
    addAttr(*m.node, "starts", std::vector<int64_t>{1});
    addAttr(*m.node, "ends", std::vector<int64_t>{100});
    addAttr(*m.node, "axes", std::vector<int64_t>{1});
    REQUIRE_CLOSE(m.run()[0], floats({2, 2}, {2, 3, 5, 6}), 1e-5, 1e-6);
  }
}

TEST_CASE("Dropout's ratio before opset 12 is dropped: inference passes data through", "[onnx][legacy]") {
  OneNode m(10, "Dropout", floats({3}, {1, -2, 3}));
  addAttr(*m.node, "ratio", 0.3f);
  REQUIRE_CLOSE(m.run()[0], floats({3}, {1, -2, 3}), 0, 0);
}

TEST_CASE("opsets before 7 where the op is unchanged since", "[onnx][legacy]") {
  std::string dir = "/usr/share/libonnx-testdata/data/pytorch-operator/test_operator_flatten/";
  Graph g = importOnnx(dir + "model.onnx"); // opset 6; Flatten-1 is Flatten at opset 7 too
  Tensor x = readTensorFile(dir + "test_data_set_0/input_0.pb").tensor;
  REQUIRE_CLOSE(runGraph(g, {{g.inputs()[0]->name(), x}})[0],
                readTensorFile(dir + "test_data_set_0/output_0.pb").tensor, 1e-5, 1e-6);

  OnnxModel add(6);
  add.input("a", DType::F32, {2});
  add.node("Add", {"a", "a"}, {"y"}, "add");
  add.output("y", DType::F32, {2});
  requireError([&] { add.import(); }, ErrorKind::Unsupported, {"model.onnx", "node 'add' (Add)", "Add-6"});
}

TEST_CASE("opsets after 21 are refused", "[onnx][legacy]") {
  requireError([] { importOnnxBytes(withOpset("test_softmax_axis_1", 22), "future.onnx"); }, ErrorKind::Unsupported,
               {"future.onnx", "opset 22"});
}
