// The μGraph operator table (mugraph/Operator.cpp): every OpType has a row
// with a name that parses back, and every operator that computes costs
// flops in the cost model, so a new operator cannot silently cost nothing.
#include "superopt/MuGraphCost.h"

#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <string>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::superopt;

namespace {

// Whether `type` computes anything, as opposed to naming or moving data.
// Deliberately not read from the table: the test states it independently.
bool computes(OpType type) {
  switch (type) {
  case OpType::Input:
  case OpType::Constant:
  case OpType::InputIterator:
  case OpType::Repeat:
  case OpType::Reshape: return false;
  case OpType::OutputAccumulator: // with a φ in its fmap: sums over the for-loop
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::Sum:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::RMSNorm:
  case OpType::GraphDefined:
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: return true;
  }
  return false;
}

const Shape kX{4, 32};

// How the block graph of inBlock() treats its for-loop.
enum class Loop {
  None,         // no for-loop: the accumulator only places each block's tile
  Concatenated, // two iterations over the columns, each placing its chunk
  Summed,       // two iterations over the columns, summed (fmap φ)
};

// One graph-defined operator over x [4, 32]: two blocks over the rows, `op`
// applied to each block's chunk, and an output accumulator.
KernelGraph inBlock(const std::function<TensorRef(BlockGraph&, TensorRef)>& op, Loop loop) {
  KernelGraph k("block");
  TensorRef x = k.input("x", kX);
  const bool looped = loop != Loop::None;
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{2},
                                            looped ? Shape{2} : Shape{});
  TensorRef chunk = block->inputIterator(0, {0}, looped ? DimMap{1} : DimMap{});
  const DimMap fmap = loop == Loop::None ? DimMap{} : loop == Loop::Summed ? DimMap{kReplica} : DimMap{1};
  block->outputAccumulator(op(*block, chunk), {0}, fmap);
  k.markOutput(k.graphDefined(block, {x})[0]);
  return k;
}

TensorRef keep(BlockGraph&, TensorRef t) { return t; }

// A small μGraph holding one instance of `type`; where it is a block-level
// operator, inside a graph-defined one.
KernelGraph instanceOf(OpType type) {
  KernelGraph k(std::string(opTypeName(type)));
  auto in = [&](const char* name, Shape shape) { return k.input(name, std::move(shape)); };
  switch (type) {
  case OpType::Input: k.markOutput(in("x", kX)); return k;
  case OpType::Constant: k.markOutput(k.constant(2)); return k;
  case OpType::InputIterator: return inBlock(keep, Loop::Concatenated);
  case OpType::OutputAccumulator: return inBlock(keep, Loop::Summed);
  case OpType::Matmul: k.markOutput(k.matmul(in("x", kX), in("w", {32, 16}))); return k;
  case OpType::ConcatMatmul:
    k.markOutput(k.concatMatmul(in("w", {4, 32}), in("x", {4, 8}), in("y", {32, 16}), in("z", {8, 16})));
    return k;
  case OpType::Sum: k.markOutput(k.sum(in("x", kX), 1, 32)); return k;
  case OpType::EwAdd: k.markOutput(k.add(in("x", kX), in("y", kX))); return k;
  case OpType::EwMul: k.markOutput(k.mul(in("x", kX), in("y", kX))); return k;
  case OpType::EwDiv: k.markOutput(k.div(in("x", kX), in("y", kX))); return k;
  case OpType::EwExp: k.markOutput(k.exp(in("x", kX))); return k;
  case OpType::Sqrt: k.markOutput(k.sqrt(in("x", kX))); return k;
  case OpType::Square: k.markOutput(k.square(in("x", kX))); return k;
  case OpType::SiLU: k.markOutput(k.silu(in("x", kX))); return k;
  case OpType::RMSNorm: k.markOutput(k.rmsNorm(in("x", kX), 1e-6)); return k;
  case OpType::Repeat: k.markOutput(k.repeat(in("x", kX), {2, 1})); return k;
  case OpType::Reshape: k.markOutput(k.reshape(in("x", kX), {32, 4})); return k;
  case OpType::GraphDefined: return inBlock([](BlockGraph& b, TensorRef t) { return b.exp(t); }, Loop::None);
  // Without a for-loop, so that the accumulator storing the result adds nothing.
  case OpType::ForLoopSum: return inBlock([](BlockGraph& b, TensorRef t) { return b.forLoopSum(t); }, Loop::None);
  case OpType::ForLoopRms:
    return inBlock([](BlockGraph& b, TensorRef t) { return b.forLoopRms(t, 1e-6); }, Loop::None);
  }
  FAIL("no instance of " << opTypeName(type));
  return k;
}

double totalFlops(const KernelGraph& graph) {
  double flops = 0;
  for (const KernelCost& kernel : estimateCost(graph).kernels) flops += kernel.flops;
  return flops;
}

} // namespace

TEST_CASE("every μGraph operator has a row in the operator table", "[superopt][cost][mugraph]") {
  std::set<std::string> names;
  for (int t = 0; t <= static_cast<int>(kLastOpType); ++t) {
    const auto type = static_cast<OpType>(t);
    const OpInfo& row = opInfo(type);
    INFO("operator " << t);
    CHECK(row.type == type);
    REQUIRE_FALSE(row.name.empty());
    CHECK(parseOpType(row.name) == type);
    CHECK(names.insert(std::string(row.name)).second);
    CHECK(row.levels != 0);
  }
  CHECK(names.size() == static_cast<size_t>(kLastOpType) + 1);
}

TEST_CASE("every μGraph operator that computes costs flops, and only those", "[superopt][cost][mugraph]") {
  for (int t = 0; t <= static_cast<int>(kLastOpType); ++t) {
    const auto type = static_cast<OpType>(t);
    INFO(opTypeName(type));
    const double flops = totalFlops(instanceOf(type));
    if (computes(type))
      CHECK(flops > 0);
    else
      CHECK(flops == 0);
  }
}

TEST_CASE("an output accumulator costs flops only where it sums over the for-loop", "[superopt][cost][mugraph]") {
  // Two blocks x two iterations each add a [2, 16] chunk: 128 additions.
  CHECK(totalFlops(inBlock(keep, Loop::Summed)) == 2 * 2 * 2 * 16);
  CHECK(totalFlops(inBlock(keep, Loop::Concatenated)) == 0);
  CHECK(totalFlops(inBlock(keep, Loop::None)) == 0);
}
