// The op registry's entries are complete: the facts that layers above read
// (FLOPs, fusion roles, μGraph forms, folding rules) are registered for
// every op that needs them, so that a missing registration fails here
// rather than costing zero FLOPs or dropping out of a μGraph unnoticed.
#include "ops/GraphBuilder.h"
#include "ops/OpRegistry.h"

#include <catch2/catch.hpp>
#include <string>

using namespace tcx;

namespace {

// Whether the op does arithmetic that a GPU kernel spends time on.
bool computes(OpClass c) {
  switch (c) {
  case OpClass::Elementwise:
  case OpClass::Reduction:
  case OpClass::Normalization:
  case OpClass::Contraction:
  case OpClass::Pooling: return true;
  case OpClass::DataMovement:
  case OpClass::Metadata: return false;
  }
  return false;
}

const OpDef& op(const std::string& name) {
  const OpDef* def = OpRegistry::instance().find(name);
  REQUIRE(def != nullptr);
  return *def;
}

} // namespace

TEST_CASE("every op that computes counts its FLOPs, and no data-movement op does", "[ops][registry]") {
  for (const OpDef* def : OpRegistry::instance().all()) {
    INFO(def->name << " (" << opClassName(def->opClass) << ")");
    if (computes(def->opClass)) CHECK(def->flops != nullptr);
    if (def->opClass == OpClass::DataMovement) CHECK(def->flops == nullptr);
  }
}

TEST_CASE("every contraction is a matrix product or a convolution to fusion", "[ops][registry]") {
  for (const OpDef* def : OpRegistry::instance().all()) {
    if (def->opClass != OpClass::Contraction) continue;
    INFO(def->name);
    const FusionRole r = def->fusionRole;
    CHECK((r == FusionRole::MatrixProduct || r == FusionRole::GeneralMatrixProduct || r == FusionRole::Convolution ||
           r == FusionRole::TransposedConvolution));
  }
  CHECK(op("MatMul").fusionRole == FusionRole::MatrixProduct);
  CHECK(op("Conv").fusionRole == FusionRole::Convolution);
  CHECK(op("Softmax").fusionRole == FusionRole::Softmax);
  CHECK(op("ReduceSum").fusionRole == FusionRole::SumReduction);
  CHECK(op("ReduceMax").fusionRole == FusionRole::MaxReduction);
  CHECK(op("Cast").fusionRole == FusionRole::TypeConversion);
}

TEST_CASE("the ops of Mirage's LAX fragment have μGraph forms", "[ops][registry][mugraph]") {
  // The ops tcx converted to μGraphs before their forms moved into the
  // registry: each must still have one, in LAX.
  for (const char* name : {"MatMul", "Add", "Sub", "Mul", "Div", "Exp", "Sigmoid", "Softmax", "ReduceSum", "ReduceMean",
                           "Reshape", "Unsqueeze", "Squeeze", "Flatten", "Expand", "Identity", "Cast", "Pow"}) {
    INFO(name);
    const MuGraphForm& form = op(name).muGraph;
    CHECK(form.lower != nullptr);
    CHECK(form.lax);
  }
  CHECK(op("Sqrt").muGraph.lower != nullptr);
  CHECK_FALSE(op("Sqrt").muGraph.lax);
  for (const char* name : {"Exp", "Sigmoid", "Softmax"}) CHECK(op(name).muGraph.exps == 1);
  for (const char* name : {"MatMul", "Add", "Sub", "Mul", "Div"}) CHECK(op(name).muGraph.dataOperands == 2);
  CHECK(op("Pow").muGraph.dataOperands == 1); // the exponent is Square's, not a tensor
  CHECK(op("Transpose").muGraph.lower == nullptr);
}

TEST_CASE("the μGraph forms name the attributes they cannot express", "[ops][registry][mugraph]") {
  GraphBuilder b("t");
  Value* x = b.input("x", DType::F32, {2, 3});
  Value* cube = b.op("Pow", {x, b.constant("three", Tensor::scalar(3.0f))});
  Value* square = b.op("Pow", {x, b.constant("two", Tensor::scalar(2.0f))});
  Value* rows = b.op("Softmax", {x}, attrs({{"axis", 0}}));
  Value* cols = b.op("Softmax", {x}, attrs({{"axis", -1}}));
  for (Value* v : {cube, square, rows, cols}) b.output(v);
  Graph g = b.finish();
  auto why = [](const Value* v) { return v->producer()->op().muGraph.unsupported(*v->producer()); };
  CHECK(why(cube) == "Pow with an exponent other than a constant 2 has no μGraph operator");
  CHECK(why(square) == std::nullopt);
  CHECK(why(rows) == "Softmax over an axis other than the last has no μGraph operator");
  CHECK(why(cols) == std::nullopt);
}

TEST_CASE("Shape and Size fold from their operand's type alone", "[ops][registry][passes]") {
  GraphBuilder b("t");
  Value* x = b.input("x", DType::F32, {2, 3, 4});
  Value* shape = b.op("Shape", {x}, attrs({{"start", 1}}));
  Value* size = b.op("Size", {x});
  b.output(shape);
  b.output(size);
  Graph g = b.finish();
  const Node& shapeNode = *shape->producer();
  const Node& sizeNode = *size->producer();
  CHECK(shapeNode.op().resultFromTypes(shapeNode).toInt64Vector() == std::vector<int64_t>{3, 4});
  CHECK(sizeNode.op().resultFromTypes(sizeNode).toInt64Vector() == std::vector<int64_t>{24});
  CHECK(op("Add").resultFromTypes == nullptr);
  CHECK(op("Constant").foldsAtAnySize);
  CHECK_FALSE(op("ConstantOfShape").foldsAtAnySize);
}

TEST_CASE("every op with a CPU kernel has a GPU lowering", "[ops][registry][codegen]") {
  // No exceptions, not even the ops import folds whatever their size
  // (Constant, Shape, Size: passes/InferAndFold): folding leaves a node
  // whose result is a graph output, which the GPU must then compute.
  std::string missing;
  for (const OpDef* def : OpRegistry::instance().all())
    if (def->kernel && !def->cudaExpr && !def->cudaElement && !def->cudaScatter) missing += " " + def->name;
  INFO("without a CUDA form:" << missing);
  CHECK(missing.empty());
}
