// The μGraph IR: shape inference and its reasons, validity, canonical form,
// stable hash, JSON round trip and DOT.
#include "Programs.h"

#include "mugraph/Canonical.h"
#include "mugraph/Dot.h"
#include "mugraph/Json.h"
#include "mugraph/LoopPhase.h"
#include "mugraph/Validate.h"
#include "support/Error.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;

namespace {
std::string errorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("imap and fmap split inputs, omap and fmap assemble outputs", "[mugraph]") {
  KernelGraph k("t");
  TensorRef x = k.input("x", {8, 16});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{2, 4}, Shape{2});
  TensorRef xb = block->inputIterator(0, {0, kReplica}, {1});
  CHECK(block->desc(xb).shape == Shape{4, 8});
  block->outputAccumulator(xb, {0, 1}, {kReplica}); // accumulate over the loop
  block->outputAccumulator(xb, {0, 1}, {1});        // concatenate over the loop
  std::vector<TensorRef> out = k.graphDefined(block, {x});
  CHECK(k.desc(out[0]).shape == Shape{8, 32});
  CHECK(k.desc(out[1]).shape == Shape{8, 64});
}

TEST_CASE("shape inference gives the reason it fails", "[mugraph]") {
  KernelGraph k("t");
  TensorRef x = k.input("x", {6, 16});
  CHECK_THAT(errorOf([&] { k.matmul(x, x); }), Catch::Contains("inner dims differ"));
  CHECK_THAT(errorOf([&] { k.sum(x, 1, 5); }), Catch::Contains("does not split into groups of 5"));
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{4}, Shape{});
  CHECK_THAT(errorOf([&] { block->inputIterator(0, {0}, {}); }), Catch::Contains("does not split evenly into 4 parts"));
  TensorRef xb = block->inputIterator(0, {1}, {});
  CHECK_THAT(errorOf([&] { block->outputAccumulator(xb, {kReplica}, {}); }),
             Catch::Contains("maps to φ, but only data dims are allowed"));
  CHECK_THAT(errorOf([&] { block->inputIterator(0, {5}, {}); }), Catch::Contains("data dim 5 of a rank-2"));
  auto thread = std::make_shared<ThreadGraph>(std::vector<TensorDesc>{block->desc(xb)}, Shape{2}, Shape{});
  CHECK_THAT(errorOf([&] {
               thread->reshape(thread->inputIterator(0, {0}, {}), {12, 2});
             }),
             Catch::Contains("Reshape is not an operator of thread graphs"));
  CHECK_THAT(errorOf([&] { BlockGraph({}, {1, 1, 1, 1}, {}); }), Catch::Contains("at most 3 grid dimensions"));
}

TEST_CASE("validation checks memory budgets and dead tensors", "[mugraph]") {
  AttentionShape s;
  CHECK(validate(flashDecoding(s, 2, 2)).ok());
  CHECK(validate(flashAttention({2, 2, 8, 16, 4}, 2, 2)).ok());

  KernelGraph k("big");
  TensorRef x = k.input("x", {1024, 1024}, DType::F32);
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{2}, Shape{});
  TensorRef xb = block->inputIterator(0, {0}, {}); // 2 MiB per block
  block->exp(xb);                                  // never used
  block->outputAccumulator(xb, {0}, {});
  k.markOutput(k.graphDefined(block, {x})[0]);
  Validation v = validate(k);
  REQUIRE(v.problems.size() == 2);
  CHECK_THAT(v.problems[0], Catch::Contains("op 1 (EwExp): its result is never used"));
  CHECK_THAT(v.problems[1], Catch::Contains("bytes of shared memory; h100-sxm allows 232448"));
}

TEST_CASE("canonical form orders operators by rank and the hash ignores the order written", "[mugraph]") {
  KernelGraph a("g");
  TensorRef x = a.input("x", {4, 4}), y = a.input("y", {4, 4});
  TensorRef ea = a.exp(x);
  TensorRef eb = a.exp(y);
  a.markOutput(a.add(ea, eb));

  KernelGraph b("g"); // the same program, the exps written in the other order
  x = b.input("x", {4, 4});
  y = b.input("y", {4, 4});
  eb = b.exp(y);
  ea = b.exp(x);
  b.markOutput(b.add(ea, eb));

  CHECK(isCanonical(a));
  CHECK_FALSE(isCanonical(b));
  KernelGraph cb = canonicalize(b);
  CHECK(isCanonical(cb));
  CHECK(cb == a);
  CHECK(stableHash(a) == stableHash(b));
  CHECK(stableHash(a) != stableHash(lora({})));
  // A search extends a canonical prefix only with higher-ranked operators.
  Operator late;
  late.type = OpType::EwExp;
  late.inputs = {{1, 0}};
  CHECK_FALSE(extendsCanonically(a, late));
  late.inputs = {{4, 0}};
  CHECK(extendsCanonically(a, late));
  // An operator not yet appended (its outputs not inferred) ranks as it will
  // once appended, so a second copy of the last one, which would compute
  // the same tensor again, is refused.
  for (const KernelGraph& g : {a, lora({}), rmsNormMatmul({}), attention({})}) {
    Operator again = g.ops().back();
    again.outputs.clear();
    CHECK_FALSE(extendsCanonically(g, again));
  }
  CHECK(isCanonical(canonicalize(flashAttention({2, 2, 8, 16, 4}, 2, 2))));
}

TEST_CASE("canonical form renumbers the outputs of a body whose accumulators it reorders", "[mugraph]") {
  // Found by a GQA search without pruning: the block graph was built with its
  // iterators in operand order, canonical form sorts them, and the
  // accumulator of the Matmul moves before that of the EwAdd. The kernel
  // Matmul reads output 1 then 0: they must follow, or its shapes clash.
  const char* json = R"({"format": "tcx-mugraph", "version": 1, "name": "reorder", "outputs": [[4, 0]], "ops": [
    {"type": "Input", "name": "k_t", "dtype": "f32", "shape": [1, 2, 16, 32]},
    {"type": "Input", "name": "v", "dtype": "f32", "shape": [1, 2, 32, 16]},
    {"type": "Input", "name": "q", "dtype": "f32", "shape": [1, 16, 1, 16]},
    {"type": "GraphDefined", "inputs": [[0, 0], [1, 0], [2, 0]], "body": {"level": "block", "grid": [2, 2],
     "forLoop": [], "inputs": [{"dtype": "f32", "shape": [1, 2, 16, 32]}, {"dtype": "f32", "shape": [1, 2, 32, 16]},
                               {"dtype": "f32", "shape": [1, 16, 1, 16]}],
     "ops": [{"type": "InputIterator", "input": 0, "imap": [3, 1], "fmap": []},
             {"type": "InputIterator", "input": 1, "imap": [2, 1], "fmap": []},
             {"type": "InputIterator", "input": 2, "imap": [-1, 1], "fmap": []},
             {"type": "EwAdd", "inputs": [[1, 0], [2, 0]]},
             {"type": "Matmul", "inputs": [[2, 0], [0, 0]]},
             {"type": "OutputAccumulator", "inputs": [[3, 0]], "omap": [2, 1], "fmap": []},
             {"type": "OutputAccumulator", "inputs": [[4, 0]], "omap": [3, 1], "fmap": []}]}},
    {"type": "Matmul", "inputs": [[3, 1], [3, 0]]}]})";
  KernelGraph g = fromJson(json, "reorder.json");
  KernelGraph c = canonicalize(g);
  CHECK(isCanonical(c));
  CHECK(stableHash(c) == stableHash(g));
  CHECK(maxDifference(g, c) < 1e-12);
}

TEST_CASE("the stable hash does not change between builds", "[mugraph]") {
  // Pinned: a change here invalidates every stored search result keyed by it.
  CHECK(fmt::format("{:016x}", stableHash(lora({}))) == "3d1393ca15be8a1f");
  CHECK(stableHash(lora({})) == stableHash(canonicalize(lora({}))));
}

TEST_CASE("JSON round-trips every level, and bad files say what is wrong", "[mugraph]") {
  KernelGraph g = flashAttention({2, 2, 8, 16, 4}, 2, 2);
  g.setLayout({0, 0}, {{0, 2, 1}}); // q stored [h, d, s]
  KernelGraph back = fromJson(toJson(g), "mem");
  CHECK(back == g);
  CHECK(stableHash(back) == stableHash(g));
  CHECK(toJson(back) == toJson(g));

  CHECK_THAT(errorOf([] { fromJson("{", "a.json"); }), Catch::Contains("a.json: malformed μGraph JSON"));
  CHECK_THAT(errorOf([] { fromJson(R"({"format":"x"})", "a.json"); }), Catch::Contains("not a μGraph file"));
  std::string bad = toJson(lora({}));
  bad.replace(bad.find("\"Matmul\""), 8, "\"Matmol\"");
  CHECK_THAT(errorOf([&] { fromJson(bad, "b.json"); }),
             Catch::Contains("b.json: kernel.ops[4]: unknown μGraph operator 'Matmol'"));
}

TEST_CASE("for-loop accumulations: RMSNorm's division runs once, after the loop", "[mugraph]") {
  RmsNormShape shape{.tokens = 4, .in = 64, .out = 16};
  KernelGraph reference = rmsNormMatmul(shape);
  for (auto [blocks, iterations] : {std::pair<int64_t, int64_t>{1, 1}, {2, 4}, {4, 8}}) {
    KernelGraph fused = rmsNormFused(shape, blocks, iterations);
    INFO(blocks << " blocks x " << iterations << " iterations");
    CHECK(maxDifference(reference, fused) < 1e-4);
    CHECK(fromJson(toJson(fused), "mem") == fused);
  }
  KernelGraph fused = rmsNormFused(shape, 2, 4);
  const PartitionedGraph& body = *fused.ops().back().body;
  using enum LoopPhase;
  // Gamma's chunk follows the loop (its fmap splits dim 0), so nothing here is invariant.
  CHECK(loopPhases(body) == std::vector<LoopPhase>{Body, Body, Body, After, Body, Body, After, After, After});
  CHECK(body.desc({3, 0}).shape == Shape{4, 1}); // ForLoopRms: one value per row

  KernelGraph k("t");
  TensorRef x = k.input("x", {4, 64});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{1}, Shape{4});
  TensorRef xb = block->inputIterator(0, {kReplica}, {1});
  TensorRef rms = block->forLoopRms(xb, 1e-6);
  CHECK_THAT(errorOf([&] { block->div(xb, rms); }),
             Catch::Contains("EwDiv mixes a tensor of one for-loop iteration with one computed after the loop"));
  CHECK_THAT(errorOf([&] { block->forLoopSum(rms); }),
             Catch::Contains("ForLoopSum accumulates a tensor that exists only after the loop"));
  CHECK_THAT(errorOf([&] { block->outputAccumulator(rms, {0}, {0}); }),
             Catch::Contains("its fmap must be φ on every for-loop dim"));
  CHECK_THAT(errorOf([&] { k.forLoopSum(x); }), Catch::Contains("ForLoopSum is not an operator of kernel graphs"));
}

TEST_CASE("DOT nests thread graphs in block graphs in the kernel graph", "[mugraph]") {
  std::ostringstream dot;
  writeDot(flashAttention({2, 2, 8, 16, 4}, 2, 2), dot);
  std::string text = dot.str();
  CHECK_THAT(text, Catch::StartsWith("digraph \"flash_attention\""));
  CHECK_THAT(text, Catch::Contains("subgraph cluster_n3 {"));
  CHECK_THAT(text, Catch::Contains("subgraph cluster_n3_4 {"));
  CHECK_THAT(text, Catch::Contains("imap {x→0, y→1}"));
  CHECK_THAT(text, Catch::Contains("fmap {i→φ}"));
}
