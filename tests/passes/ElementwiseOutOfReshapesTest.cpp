// passes/ElementwiseOutOfReshapes.h: the rewrite moves element-wise ops out of
// reshapes that undo each other, keeps the graph's values, and leaves alone
// what it cannot prove sound.

#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "passes/ElementwiseOutOfReshapes.h"
#include "passes/GraphPasses.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

using Ints = std::vector<int64_t>;

// Swin's shifted-window mask at small sizes: scores of 2 images x 4 windows,
// 3 heads, 5 x 5, viewed per image to add the windows' mask, viewed back and
// softmaxed. `between` is applied to the viewed scores before the mask.
Graph shiftedWindowScores(const std::string& between = "") {
  GraphBuilder b("shifted_windows");
  Value* scores = b.input("scores", DType::F32, {8, 3, 5, 5});
  Value* viewed = b.op("Reshape", {scores, b.ints("per_image", {2, 4, 3, 5, 5})}, {}, "view_in");
  if (!between.empty()) viewed = b.op(between, {viewed}, {}, "between");
  Value* masked = b.op("Add", {viewed, b.input("mask", DType::F32, {1, 4, 1, 5, 5})}, {}, "add_mask");
  Value* back = b.op("Reshape", {masked, b.ints("per_window", {8, 3, 5, 5})}, {}, "view_out");
  b.output(b.op("Softmax", {back}, attrs({{"axis", int64_t{-1}}}), "softmax"));
  return b.finish();
}

int count(const Graph& g, const std::string& opType) {
  int n = 0;
  for (const Node* node : g.nodes()) n += node->opType() == opType;
  return n;
}

} // namespace

TEST_CASE("a mask added between reshapes that undo each other is added in place, through an Expand", "[passes]") {
  Graph original = shiftedWindowScores();
  Graph rewritten = shiftedWindowScores();
  graphCleanupPipeline().run(rewritten);
  REQUIRE(count(rewritten, "Reshape") == 1); // the mask's, after its Expand
  REQUIRE(count(rewritten, "Expand") == 1);
  const Node* add = nullptr;
  for (const Node* node : rewritten.nodes())
    if (node->opType() == "Add") add = node;
  REQUIRE(add);
  CHECK(add->input(0)->name() == "scores");
  CHECK(add->output(0)->type().shape == Ints{8, 3, 5, 5});
  CHECK(add->input(1)->producer()->opType() == "Reshape");
  CHECK(add->input(1)->producer()->input(0)->producer()->opType() == "Expand");

  const std::map<std::string, Tensor> inputs = randomInputs(original, 7);
  const Tensor before = ReferenceExecutor(original).run(inputs).outputs.at(0);
  const Tensor after = ReferenceExecutor(rewritten).run(inputs).outputs.at(0);
  REQUIRE(before.numElements() == after.numElements());
  const auto x = before.data<float>(), y = after.data<float>();
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(x[i] == y[i]);
}

TEST_CASE("element-wise ops stay between reshapes where moving them is not sound or not whole", "[passes]") {
  SECTION("the outer reshape does not restore the shape") {
    GraphBuilder b("other_shape");
    Value* x = b.input("x", DType::F32, {8, 3, 5, 5});
    Value* viewed = b.op("Reshape", {x, b.ints("in", {2, 4, 3, 5, 5})});
    Value* added = b.op("Add", {viewed, b.input("m", DType::F32, {1, 4, 1, 5, 5})});
    b.output(b.op("Reshape", {added, b.ints("out", {8, 75})}));
    Graph g = b.finish();
    CHECK(moveElementwiseOutOfReshapes(g) == 0);
  }
  SECTION("the viewed value has another reader") {
    GraphBuilder b("shared_view");
    Value* x = b.input("x", DType::F32, {8, 3, 5, 5});
    Value* viewed = b.op("Reshape", {x, b.ints("in", {2, 4, 3, 5, 5})});
    Value* added = b.op("Add", {viewed, b.input("m", DType::F32, {1, 4, 1, 5, 5})});
    b.output(b.op("Reshape", {added, b.ints("out", {8, 3, 5, 5})}));
    b.output(b.op("Relu", {viewed}));
    Graph g = b.finish();
    CHECK(moveElementwiseOutOfReshapes(g) == 0);
  }
  SECTION("the op reads positions, not only elements (Trilu)") {
    GraphBuilder b("trilu");
    Value* x = b.input("x", DType::F32, {6, 4});
    Value* viewed = b.op("Reshape", {x, b.ints("in", {4, 6})});
    Value* lower = b.op("Trilu", {viewed}, attrs({{"upper", int64_t{0}}}));
    b.output(b.op("Reshape", {lower, b.ints("out", {6, 4})}));
    Graph g = b.finish();
    CHECK(moveElementwiseOutOfReshapes(g) == 0);
  }
  SECTION("a chain of two element-wise ops moves the one next to the outer reshape only if it reads the view") {
    Graph g = shiftedWindowScores("Relu");
    CHECK(moveElementwiseOutOfReshapes(g) == 0);
  }
}
