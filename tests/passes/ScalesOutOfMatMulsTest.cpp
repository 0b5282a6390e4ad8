// passes/ScalesOutOfMatMuls.h: one-element float scales move from a float
// MatMul's operands to its result, the values kept to rounding; other scales
// and types stay.

#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "passes/GraphPasses.h"
#include "passes/ScalesOutOfMatMuls.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tcx;

namespace {

// As scaled_dot_product_attention exports: Q and K^T each scaled by a graph
// input of one element, then multiplied, then softmaxed (a graph output
// keeps its producer, and with it its name); `kDivided` divides K^T by a
// constant instead.
Graph scaledScores(DType dtype, bool kDivided = false) {
  GraphBuilder b("scaled_scores");
  Value* s = b.input("s", dtype, {1});
  Value* q = b.op("Mul", {b.input("q", dtype, {2, 3, 5, 4}), s}, {}, "scale_q");
  Value* kt = b.input("kt", dtype, {2, 3, 4, 6});
  kt = kDivided ? b.op("Div", {kt, b.constant("c", Tensor::scalar<float>(8.0f))}, {}, "scale_k")
                : b.op("Mul", {s, kt}, {}, "scale_k");
  b.output(b.op("Softmax", {b.op("MatMul", {q, kt}, {}, "scores")}, attrs({{"axis", int64_t{-1}}})));
  return b.finish();
}

std::vector<std::string> opsInOrder(const Graph& g) {
  std::vector<std::string> ops;
  for (const Node* node : g.nodes()) ops.push_back(node->opType());
  return ops;
}

void requireSameValues(const Graph& original, const Graph& rewritten) {
  const std::map<std::string, Tensor> inputs = randomInputs(original, 11);
  const Tensor before = ReferenceExecutor(original).run(inputs).outputs.at(0);
  const Tensor after = ReferenceExecutor(rewritten).run(inputs).outputs.at(0);
  const auto x = before.data<float>(), y = after.data<float>();
  REQUIRE(x.size() == y.size());
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(std::abs(x[i] - y[i]) <= 1e-6 * (1 + std::abs(x[i])));
}

} // namespace

TEST_CASE("scales on both operands of a float MatMul apply to its result", "[passes]") {
  Graph rewritten = scaledScores(DType::F32);
  graphCleanupPipeline().run(rewritten);
  CHECK(opsInOrder(rewritten) == std::vector<std::string>{"MatMul", "Mul", "Mul", "Softmax"});
  const Node* mm = rewritten.nodes().front();
  CHECK(mm->input(0)->name() == "q");
  CHECK(mm->input(1)->name() == "kt");
  requireSameValues(scaledScores(DType::F32), rewritten);

  INFO("a division by a constant likewise");
  Graph divided = scaledScores(DType::F32, true);
  graphCleanupPipeline().run(divided);
  CHECK(opsInOrder(divided) == std::vector<std::string>{"MatMul", "Mul", "Div", "Softmax"});
  requireSameValues(scaledScores(DType::F32, true), divided);
}

TEST_CASE("scales stay on a MatMul's operands in 16-bit types, when shared, or per element", "[passes]") {
  SECTION("bf16: the unscaled product could overflow") {
    Graph g = scaledScores(DType::BF16);
    CHECK(moveScalesOutOfMatMuls(g) == 0);
  }
  SECTION("the scaled operand has another reader") {
    GraphBuilder b("shared");
    Value* q = b.op("Mul", {b.input("q", DType::F32, {5, 4}), b.input("s", DType::F32, {})});
    b.output(b.op("Relu", {b.op("MatMul", {q, b.input("k", DType::F32, {4, 6})})}));
    b.output(b.op("Relu", {q}));
    Graph g = b.finish();
    CHECK(moveScalesOutOfMatMuls(g) == 0);
  }
  SECTION("a scale per column is not one scalar") {
    GraphBuilder b("per_column");
    Value* q = b.op("Mul", {b.input("q", DType::F32, {5, 4}), b.input("s", DType::F32, {4})});
    b.output(b.op("Relu", {b.op("MatMul", {q, b.input("k", DType::F32, {4, 6})})}));
    Graph g = b.finish();
    CHECK(moveScalesOutOfMatMuls(g) == 0);
  }
}
