// Thread-graph construction: element-wise chains in block graphs become
// thread graphs that validate, compute the same numbers and pass the
// finite-field verifier; anything else is left as it was.
#include "Programs.h"

#include "mugraph/FloatDomain.h"
#include "mugraph/Validate.h"
#include "superopt/ThreadGraphConstruction.h"
#include "verify/FiniteFieldVerifier.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;
using namespace tcx::superopt;

namespace {

std::vector<OpType> typesOf(const OperatorGraph& g) {
  std::vector<OpType> types;
  for (const Operator& op : g.ops()) types.push_back(op.type);
  return types;
}


void checkSameFunction(const KernelGraph& original, const KernelGraph& built) {
  Validation v = validate(built);
  INFO((v.ok() ? std::string() : v.problems.front()));
  CHECK(v.ok());
  CHECK(maxDifference(original, built, 3) == 0); // the rewrite must not change a single value
  verify::VerifyOptions options;
  options.seed = 11;
  CHECK(verify::FiniteFieldVerifier(options).verify(original, built).verdict == verify::Verdict::Equivalent);
}

// Over x, y [rows, cols], a block per `rows / grid` rows: c = square(exp(x) y),
// and when `storeExp`, exp(x) as a second output.
KernelGraph expChain(Shape shape, int64_t grid, bool storeExp) {
  KernelGraph k("exp_chain");
  TensorRef x = k.input("x", shape), y = k.input("y", shape);
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x), k.desc(y)}, Shape{grid}, Shape{});
  TensorRef e = block->exp(block->inputIterator(0, {0}, {}));
  block->outputAccumulator(block->square(block->mul(e, block->inputIterator(1, {0}, {}))), {0}, {});
  if (storeExp) block->outputAccumulator(e, {0}, {});
  for (TensorRef out : k.graphDefined(block, {x, y})) k.markOutput(out);
  return k;
}

// The thread graphs of block graph `kernelOp`, in order.
std::vector<const PartitionedGraph*> threadGraphs(const KernelGraph& k, int kernelOp) {
  std::vector<const PartitionedGraph*> out;
  for (const Operator& op : k.op(kernelOp).body->ops())
    if (op.type == OpType::GraphDefined) out.push_back(op.body.get());
  return out;
}

} // namespace

TEST_CASE("FlashDecoding's exp becomes a thread graph computing the same function", "[superopt][threadgraph]") {
  KernelGraph original = flashDecoding({}, 2, 2);
  KernelGraph built = constructThreadGraphs(original);
  const PartitionedGraph& block = *built.op(3).body;
  using enum OpType;
  CHECK(typesOf(block) == std::vector<OpType>{InputIterator, InputIterator, InputIterator, Matmul, GraphDefined,
                                              Matmul, OutputAccumulator, Sum, OutputAccumulator});
  const PartitionedGraph& thread = *block.op(4).body;
  CHECK(thread.level() == Level::Thread);
  CHECK(typesOf(thread) == std::vector<OpType>{InputIterator, EwExp, OutputAccumulator});
  CHECK(thread.gridDims() == Shape{2}); // the key tile: 8 keys over 2 chunks x 2 iterations
  CHECK(block.op(4).inputs == std::vector<TensorRef>{{3, 0}});
  CHECK(block.op(5).inputs[0] == TensorRef{4, 0});
  CHECK(block.op(7).inputs[0] == TensorRef{4, 0});
  CHECK(built.op(4) == original.op(4)); // kernel 2 has no element-wise chain
  checkSameFunction(original, built);
}

TEST_CASE("an element-wise chain becomes one thread graph, a thread per slice of a row", "[superopt][threadgraph]") {
  KernelGraph original = expChain({8, 256}, 8, false);
  KernelGraph built = constructThreadGraphs(original);
  std::vector<const PartitionedGraph*> threads = threadGraphs(built, 2);
  REQUIRE(threads.size() == 1);
  using enum OpType;
  CHECK(typesOf(*threads[0]) ==
        std::vector<OpType>{InputIterator, InputIterator, EwExp, EwMul, Square, OutputAccumulator});
  CHECK(threads[0]->gridDims() == Shape{128});
  CHECK(threads[0]->forLoopDims().empty());
  CHECK(registerWords(*threads[0]) == 6 * 2); // six tensors of two elements each
  CHECK(typesOf(*built.op(2).body) ==
        std::vector<OpType>{InputIterator, InputIterator, GraphDefined, OutputAccumulator});
  checkSameFunction(original, built);
}

TEST_CASE("a result an accumulator also reads ends the chain there", "[superopt][threadgraph]") {
  // exp(x) must reach shared memory for its accumulator, so it is a thread
  // graph's output; the chain after it is a second thread graph reading it.
  KernelGraph original = expChain({8, 256}, 8, true);
  KernelGraph built = constructThreadGraphs(original);
  std::vector<const PartitionedGraph*> threads = threadGraphs(built, 2);
  REQUIRE(threads.size() == 2);
  using enum OpType;
  CHECK(typesOf(*threads[0]) == std::vector<OpType>{InputIterator, EwExp, OutputAccumulator});
  CHECK(typesOf(*threads[1]) == std::vector<OpType>{InputIterator, InputIterator, EwMul, Square, OutputAccumulator});
  const PartitionedGraph& block = *built.op(2).body;
  CHECK(block.op(3).inputs == std::vector<TensorRef>{{1, 0}, {2, 0}});
  CHECK(block.op(5).type == OutputAccumulator);
  CHECK(block.op(5).inputs[0] == TensorRef{1, 0});
  checkSameFunction(original, built);
}

TEST_CASE("a broadcasting operand keeps its operator out of the thread graph", "[superopt][threadgraph]") {
  KernelGraph original("softmax_row");
  TensorRef x = original.input("x", {4, 64});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{original.desc(x)}, Shape{4}, Shape{});
  TensorRef xb = block->inputIterator(0, {0}, {});
  TensorRef e = block->exp(xb);
  block->outputAccumulator(block->div(e, block->sum(xb, 1, 64)), {0}, {});
  original.markOutput(original.graphDefined(block, {x})[0]);
  KernelGraph built = constructThreadGraphs(original);
  using enum OpType;
  CHECK(typesOf(*built.op(1).body) == std::vector<OpType>{InputIterator, GraphDefined, Sum, EwDiv, OutputAccumulator});
  CHECK(typesOf(*built.op(1).body->op(1).body) == std::vector<OpType>{InputIterator, EwExp, OutputAccumulator});
  checkSameFunction(original, built);
}

TEST_CASE("a thread loops over leading dims until its tensors fit in registers", "[superopt][threadgraph]") {
  // [32, 512] in one block: 128 threads hold 4 x 32 elements of each of six
  // tensors without a loop (768 words); looping over the 32 rows leaves each
  // iteration's five tensors 4 elements, beside the 128-word accumulator.
  KernelGraph original = expChain({32, 512}, 1, false);
  KernelGraph built = constructThreadGraphs(original);
  std::vector<const PartitionedGraph*> threads = threadGraphs(built, 2);
  REQUIRE(threads.size() == 1);
  CHECK(threads[0]->gridDims() == Shape{128});
  CHECK(threads[0]->forLoopDims() == Shape{32});
  CHECK(registerWords(*threads[0]) == 5 * 4 + 32 * 4);
  checkSameFunction(original, built);

  // A row of 65536 leaves each of 128 threads a 512-word accumulator: no loop helps.
  KernelGraph wide = expChain({1, 65536}, 1, false);
  CHECK(constructThreadGraphs(wide) == wide);
}

TEST_CASE("graphs without element-wise chains in block graphs come back equal", "[superopt][threadgraph]") {
  AttentionShape s;
  for (const KernelGraph& g : {attention(s), flashAttention(s, 1, 2), lora({}), loraConcat({})})
    CHECK(constructThreadGraphs(g) == g);
}
