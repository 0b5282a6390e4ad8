#include "OnnxTestUtil.h"

#include "ops/GraphBuilder.h"
#include "ops/OpRegistry.h"
#include "ops/Printer.h"
#include "ops/Verifier.h"
#include "passes/DeadCodeElimination.h"
#include "passes/InferAndFold.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor ints(std::vector<int64_t> values) {
  return Tensor::fromVector<int64_t>({static_cast<int64_t>(values.size())}, values);
}

// y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0), [0]), [-1])), as
// torch's x.view(x.size(0), -1) exports.
void buildFlattenSubgraph(Graph& g) {
  Value* x = g.addInput("x", {DType::F32, {2, 3, 4}});
  Node* shape = addNode(g, "Shape", {x}, {"s"}, {}, "shape");
  Node* gather = addNode(g, "Gather", {shape->output(0), g.addConstant("zero", Tensor::scalar<int64_t>(0))}, {"d0"},
                           attrs({{"axis", 0}}), "gather");
  Node* unsqueeze =
      addNode(g, "Unsqueeze", {gather->output(0), g.addConstant("axes", ints({0}))}, {"d0_1d"}, {}, "unsqueeze");
  Node* concat = addNode(g, "Concat", {unsqueeze->output(0), g.addConstant("minus_one", ints({-1}))}, {"target"},
                           attrs({{"axis", 0}}), "concat");
  Node* reshape = addNode(g, "Reshape", {x, concat->output(0)}, {"y"}, {}, "reshape");
  g.markOutput(reshape->output(0));
}

} // namespace

TEST_CASE("a PyTorch shape subgraph folds into a constant shape", "[onnx][passes]") {
  Graph g;
  buildFlattenSubgraph(g);
  inferAndFold(g);
  verifyGraph(g);
  REQUIRE(g.numNodes() == 1);
  const Node* reshape = g.nodes()[0];
  REQUIRE(reshape->opType() == "Reshape");
  REQUIRE(reshape->input(1)->isConstant());
  REQUIRE(reshape->input(1)->constant().toInt64Vector() == std::vector<int64_t>{2, -1});
  REQUIRE(reshape->output(0)->type() == TensorType{DType::F32, {2, 12}});
  // Only the graph input, the folded shape and the result are left.
  REQUIRE(g.values().size() == 3);
}

TEST_CASE("the importer folds the shape subgraph of a model", "[onnx][passes]") {
  OnnxModel m(13);
  m.input("x", DType::F32, {2, 3, 4});
  m.initializer("zero", Tensor::scalar<int64_t>(0));
  m.initializer("axes", ints({0}));
  m.initializer("minus_one", ints({-1}));
  m.node("Shape", {"x"}, {"s"});
  addAttr(m.node("Gather", {"s", "zero"}, {"d0"}), "axis", 0);
  m.node("Unsqueeze", {"d0", "axes"}, {"d0_1d"});
  addAttr(m.node("Concat", {"d0_1d", "minus_one"}, {"target"}), "axis", 0);
  m.node("Reshape", {"x", "target"}, {"y"}, "view");
  m.output("y", DType::F32, {2, 12});
  Graph g = m.import();
  REQUIRE(graphToString(g) == "graph test {\n"
                              "  input %x : f32[2,3,4]\n"
                              "  %y = Reshape(%x : f32[2,3,4], %target : i64[2] = const) : f32[2,12]  "
                              "// data movement\n"
                              "  output %y : f32[2,12]\n"
                              "}\n");
}

TEST_CASE("Shape and Size fold from the static type", "[onnx][passes]") {
  Graph g;
  Value* x = g.addInput("x", {DType::F32, {2, 3, 4, 5}});
  Node* shape = addNode(g, "Shape", {x}, {"s"}, attrs({{"start", 1}, {"end", -1}}));
  Node* size = addNode(g, "Size", {x}, {"n"});
  Node* a = addNode(g, "Add", {shape->output(0), g.addConstant("one", ints({1}))}, {"a"});
  Node* b = addNode(g, "Mul", {size->output(0), g.addConstant("two", Tensor::scalar<int64_t>(2))}, {"b"});
  g.markOutput(a->output(0));
  g.markOutput(b->output(0));
  inferAndFold(g);
  REQUIRE(g.numNodes() == 2); // the graph outputs keep their nodes
  REQUIRE(a->input(0)->constant().toInt64Vector() == std::vector<int64_t>{3, 4});
  REQUIRE(b->input(0)->constant().toInt64Vector() == std::vector<int64_t>{120});
  REQUIRE(runGraph(g)[0].toInt64Vector() == std::vector<int64_t>{4, 5});
}

TEST_CASE("a result with no elements folds while its operands are unknown", "[onnx][passes]") {
  // Phi-3's partial rotary embedding at a rotary dimension of the whole
  // head: q[..., rotary_dim:] is empty, and Concat(rotated, empty) follows.
  Graph g;
  Value* q = g.addInput("q", {DType::F32, {1, 4, 8, 16}});
  Node* pass = addNode(g, "Slice", {q, g.addConstant("starts", ints({16})), g.addConstant("ends", ints({16})),
                                    g.addConstant("axes", ints({3}))},
                       {"pass"});
  Node* rotated = addNode(g, "Neg", {q}, {"rotated"});
  Node* concat = addNode(g, "Concat", {rotated->output(0), pass->output(0)}, {"y"}, attrs({{"axis", -1}}));
  g.markOutput(concat->output(0));
  inferAndFold(g);
  REQUIRE(g.numNodes() == 2); // the Slice is gone
  REQUIRE(concat->input(1)->isConstant());
  CHECK(concat->input(1)->type().shape == Shape{1, 4, 8, 0});
  Tensor x = Tensor::fromVector<float>({1, 4, 8, 16}, std::vector<float>(512, 2.0f));
  CHECK(runGraph(g, {{"q", x}})[0].data<float>()[511] == -2.0f);
}

TEST_CASE("folding respects its options", "[onnx][passes]") {
  auto build = [](Graph& g) {
    Value* x = g.addInput("x", {DType::F32, {512, 1024}});
    Node* expand = addNode(g, 
        "Expand",
        {g.addConstant("row", Tensor::filled(DType::F32, {1024}, 1.0)), g.addConstant("shape", ints({512, 1024}))},
        {"rows"}, {}, "expand");
    Node* add = addNode(g, "Add", {x, expand->output(0)}, {"y"}, {}, "add");
    g.markOutput(add->output(0));
  };
  SECTION("results over maxFoldBytes stay computed") {
    Graph g;
    build(g);
    inferAndFold(g); // 2 MiB of f32 against 1 MiB
    REQUIRE(g.numNodes() == 2);
    REQUIRE(g.findNode("expand")->output(0)->type() == TensorType{DType::F32, {512, 1024}});
  }
  SECTION("a larger limit folds them") {
    Graph g;
    build(g);
    inferAndFold(g, {.maxFoldBytes = size_t{4} << 20});
    REQUIRE(g.numNodes() == 1);
    REQUIRE(g.nodes()[0]->input(1)->isConstant());
  }
  SECTION("without folding only types are inferred") {
    Graph g;
    build(g);
    inferAndFold(g, {.fold = false, .maxFoldBytes = size_t{4} << 20});
    REQUIRE(g.numNodes() == 2);
    REQUIRE(g.findNode("add")->output(0)->type() == TensorType{DType::F32, {512, 1024}});
  }
}

TEST_CASE("results too large to count are left alone", "[onnx][passes]") {
  Graph g;
  Node* fill = addNode(g, "ConstantOfShape", {g.addConstant("shape", ints({int64_t{1} << 40, int64_t{1} << 40}))},
                         {"huge"}, {}, "fill");
  g.markOutput(addNode(g, "Identity", {fill->output(0)}, {"y"}, {}, "identity")->output(0));
  inferAndFold(g);
  REQUIRE(g.numNodes() == 2);
}

TEST_CASE("inference errors name the node", "[onnx][passes]") {
  Graph g;
  Value* x = g.addInput("x", {DType::F32, {2, 3}});
  Value* shape = g.addInput("shape", {DType::I64, {1}});
  g.markOutput(addNode(g, "Reshape", {x, shape}, {"y"}, {}, "reshape")->output(0));
  requireError([&] { inferAndFold(g); }, ErrorKind::DataDependentShape, {"node 'reshape' (Reshape)"});
}

TEST_CASE("dead code elimination", "[onnx][passes]") {
  GraphBuilder b("dce");
  Value* x = b.input("x", DType::F32, {4});
  b.input("unused_input", DType::F32, {4});
  b.constant("unused_constant", Tensor::filled(DType::F32, {4}, 1.0));
  Value* live = b.op("Relu", {x}, {}, "live");
  Value* dead = b.op("Neg", {x}, {}, "dead");
  b.op("Relu", {dead}, {}, "dead_user");
  b.op("Add", {dead, b.constant("dead_bias", Tensor::filled(DType::F32, {4}, 2.0))}, {}, "dead_add");
  b.output(b.op("Add", {live, b.constant("bias", Tensor::filled(DType::F32, {4}, 3.0))}, {}, "out"));
  Graph g = b.finish();

  REQUIRE(eliminateDeadCode(g) == 5); // three nodes, two constants
  verifyGraph(g);
  std::vector<std::string> names;
  for (const Node* n : g.nodes()) names.push_back(n->name());
  REQUIRE(names == std::vector<std::string>{"live", "out"});
  REQUIRE(g.inputs().size() == 2);
  REQUIRE(g.findValue("unused_constant") == nullptr);
  REQUIRE(g.findValue("bias") != nullptr);
  REQUIRE(eliminateDeadCode(g) == 0);
}
