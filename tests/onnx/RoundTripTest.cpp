#include "OnnxTestUtil.h"

#include "ops/GraphBuilder.h"
#include "ops/Printer.h"
#include "onnx/OnnxExporter.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor ramp(Shape shape, float scale) {
  std::vector<float> values;
  for (int64_t i = 0; i < numElements(shape); ++i) values.push_back(scale * static_cast<float>(i % 11) - 2.0f);
  return Tensor::fromVector<float>(std::move(shape), values);
}

// Covers attributes of every kind the registry uses, a node with several
// results, an omitted optional operand in the middle, and bool and f16 values.
Graph buildGraph() {
  GraphBuilder b("roundtrip");
  Value* x = b.input("x", DType::F32, {2, 3, 4});
  Value* mask = b.input("mask", DType::Bool, {2, 5, 3});
  Value* mm = b.op("MatMul", {x, b.constant("w", ramp({4, 5}, 0.25f))}, {}, "mm");
  Value* t = b.op("Transpose", {mm}, attrs({{"perm", std::vector<int64_t>{0, 2, 1}}}), "t");
  std::vector<Value*> parts = b.ops("Split", {t, b.ints("sizes", {2, 3})}, attrs({{"axis", 1}}), 2, "split");
  Value* cat = b.op("Concat", {parts[1], parts[0]}, attrs({{"axis", 1}}), "cat");
  Value* leaky = b.op("LeakyRelu", {cat}, attrs({{"alpha", 0.2f}}), "leaky");
  Value* masked = b.op("Where", {mask, leaky, b.constant("zero", Tensor::scalar(0.0f))}, {}, "masked");
  Value* sm = b.op("Softmax", {masked}, attrs({{"axis", -1}}), "sm");
  Value* sliced =
      b.op("Slice", {sm, b.ints("starts", {1}), b.ints("ends", {100}), nullptr, b.ints("steps", {2})}, {}, "sliced");
  Value* padded = b.op("Pad", {sliced, b.ints("pads", {0, 0, 1, 0, 0, 0})}, attrs({{"mode", "reflect"}}), "padded");
  Value* r = b.op("Reshape", {padded, b.ints("shape", {2, -1})}, {}, "r");
  b.output(b.op("Cast", {r}, attrs({{"to", static_cast<int64_t>(dtypeToOnnx(DType::F16))}}), "half"));
  b.output(parts[0]);
  return b.finish();
}

std::map<std::string, Tensor> graphInputs() {
  std::vector<bool> mask;
  for (int i = 0; i < 30; ++i) mask.push_back(i % 3 != 0);
  return {{"x", ramp({2, 3, 4}, 0.5f)}, {"mask", Tensor::fromVector<bool>({2, 5, 3}, mask)}};
}

} // namespace

TEST_CASE("export then import gives the same graph", "[onnx][roundtrip]") {
  Graph original = buildGraph();
  std::string bytes = exportOnnxBytes(original);
  Graph imported = importOnnxBytes(bytes, "roundtrip.onnx");
  REQUIRE(graphToString(imported) == graphToString(original));

  for (const Value* v : original.values()) {
    if (!v->isConstant()) continue;
    INFO(v->name());
    REQUIRE(imported.findValue(v->name()) != nullptr);
    REQUIRE(imported.findValue(v->name())->constant().identicalTo(v->constant()));
  }
  std::vector<Tensor> expected = runGraph(original, graphInputs());
  std::vector<Tensor> actual = runGraph(imported, graphInputs());
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) REQUIRE(actual[i].identicalTo(expected[i]));
}

TEST_CASE("exports are deterministic", "[onnx][roundtrip]") {
  std::string bytes = exportOnnxBytes(buildGraph());
  REQUIRE(exportOnnxBytes(buildGraph()) == bytes);
  REQUIRE(exportOnnxBytes(importOnnxBytes(bytes, "roundtrip.onnx")) == bytes);
}

TEST_CASE("the exported model header", "[onnx][roundtrip]") {
  onnx::ModelProto model;
  REQUIRE(model.ParseFromString(exportOnnxBytes(buildGraph(), 21)));
  REQUIRE(model.ir_version() == 8);
  REQUIRE(model.producer_name() == "tcx");
  REQUIRE(model.opset_import_size() == 1);
  REQUIRE(model.opset_import(0).domain().empty());
  REQUIRE(model.opset_import(0).version() == 21);
  REQUIRE(model.graph().initializer(0).has_raw_data());
  requireError([] { exportOnnxBytes(buildGraph(), 13); }, ErrorKind::InvalidArgument, {"opset 13"});
}

TEST_CASE("exportOnnx writes the file whole", "[onnx][roundtrip]") {
  ScratchDir dir;
  std::string path = dir.file("model.onnx");
  exportOnnx(buildGraph(), path);
  REQUIRE(graphToString(importOnnx(path)) == graphToString(buildGraph()));
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++files;
  REQUIRE(files == 1); // no temporary left behind
  requireError([&] { exportOnnx(buildGraph(), dir.file("absent/model.onnx")); }, ErrorKind::Io, {"absent/model.onnx"});
}
