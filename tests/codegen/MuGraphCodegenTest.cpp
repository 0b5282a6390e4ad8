// CUDA for μGraphs, checked without a GPU: the launches, buffers and shared
// memory each program becomes. tests/gpu runs the code against the float
// interpreter.
#include "../mugraph/Programs.h"

#include "codegen/mugraph/MuGraphCuda.h"
#include "codegen/mugraph/SharedMemoryPlan.h"
#include "support/Error.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;

namespace {

using Grid = std::array<unsigned, 3>;

// One launch per kernel-level operator that computes: not Input, Reshape or Constant.
size_t computingOps(const KernelGraph& g) {
  size_t n = 0;
  for (const Operator& op : g.ops())
    n += op.type != OpType::Input && op.type != OpType::Reshape && op.type != OpType::Constant;
  return n;
}

} // namespace

TEST_CASE("FlashDecoding becomes two kernels, the grids of its block graphs", "[mugraph-codegen]") {
  AttentionShape s{.heads = 4, .kvHeads = 4, .queryLen = 1, .kvLen = 16, .headDim = 8};
  MuGraphCuda c = generateMuGraphCuda(flashDecoding(s, 2, 2));
  REQUIRE(c.launches.size() == 2);
  CHECK(c.launches[0].grid == Grid{4, 2, 1});
  CHECK(c.launches[1].grid == Grid{4, 1, 1});
  // q, k_t, v; the partial products and sums; the output.
  REQUIRE(c.buffers.size() == 6);
  CHECK(c.inputBuffers == std::vector<int>{0, 1, 2});
  CHECK(c.outputBuffers == std::vector<int>{5});
  CHECK(c.launches[0].reads == std::vector<int>{0, 1, 2});
  CHECK(c.launches[0].writes == std::vector<int>{3, 4});
  CHECK(c.launches[1].reads == std::vector<int>{3, 4});
  CHECK(c.launches[1].writes == std::vector<int>{5});
  CHECK(c.buffers[3].desc.shape == Shape{4, 1, 16});
  CHECK(c.buffers[3].role == MuGraphBuffer::Role::Intermediate);
  CHECK(c.buffers[5].role == MuGraphBuffer::Role::Output);
  CHECK(c.buffers[5].bytes == 4 * 8 * 2);
  for (const MuGraphLaunch& l : c.launches) {
    CHECK(l.sharedBytes > 0);
    CHECK(c.source.find("void __launch_bounds__(256) " + l.entry + "(Buffers b)") != std::string::npos);
  }
  // The for-loop runs inside the first kernel.
  CHECK(c.source.find("for (int sl0 = 0; sl0 < 2; ++sl0)") != std::string::npos);
}

TEST_CASE("Kernel-level operators are one kernel each, and a Reshape views its operand", "[mugraph-codegen]") {
  AttentionShape s{.heads = 4, .kvHeads = 2, .queryLen = 2, .kvLen = 8, .headDim = 4};
  KernelGraph g = attention(s);
  MuGraphCuda c = generateMuGraphCuda(g);
  REQUIRE(c.launches.size() == computingOps(g));
  CHECK(c.launches.size() == 7); // 2 Repeats, Matmul, Exp, Sum, Div, Matmul
  // The first Repeat reads k_t's own buffer through the Reshape.
  CHECK(g.op(c.launches[0].op).type == OpType::Repeat);
  CHECK(c.launches[0].reads == std::vector<int>{1});
  for (const MuGraphLaunch& l : c.launches) {
    int64_t n = numElements(c.buffers[l.writes[0]].desc.shape);
    CHECK(l.grid[0] == static_cast<unsigned>((n + 255) / 256));
    CHECK(l.block == Grid{256, 1, 1});
    CHECK(l.sharedBytes == 0);
  }
  CHECK(c.buffers.size() == 3 + 7);
}

TEST_CASE("Mirage's GQA program: one block per KV head and chunk, the output is a view", "[mugraph-codegen]") {
  AttentionShape s{.heads = 8, .kvHeads = 2, .queryLen = 1, .kvLen = 16, .headDim = 4};
  MuGraphCuda c = generateMuGraphCuda(mirageGqa(s, 2, 2));
  REQUIRE(c.launches.size() == 2);
  CHECK(c.launches[0].grid == Grid{2, 2, 1});
  CHECK(c.launches[1].grid == Grid{2, 1, 1});
  // The reshaped output is the combining kernel's buffer.
  CHECK(c.outputBuffers == c.launches[1].writes);
}

TEST_CASE("FlashAttention's thread graph runs per thread, in registers", "[mugraph-codegen]") {
  AttentionShape s{.heads = 2, .kvHeads = 2, .queryLen = 4, .kvLen = 16, .headDim = 4};
  MuGraphCuda c = generateMuGraphCuda(flashAttention(s, 2, 4));
  REQUIRE(c.launches.size() == 2);
  CHECK(c.launches[0].grid == Grid{2, 2, 1});
  CHECK(c.source.find("for (int tp = threadIdx.x; tp < 4; tp += 256)") != std::string::npos);
  CHECK(c.source.find("float r1_0[2];") != std::string::npos);
}

TEST_CASE("LoRA: three matmuls and an add, or a matmul and the fused concat-matmul", "[mugraph-codegen]") {
  LoraShape s;
  MuGraphCuda plain = generateMuGraphCuda(lora(s));
  MuGraphCuda fused = generateMuGraphCuda(loraConcat(s));
  CHECK(plain.launches.size() == 4);
  REQUIRE(fused.launches.size() == 2);
  CHECK(fused.launches[1].entry == "mg5_ConcatMatmul");
  CHECK(fused.launches[1].reads == std::vector<int>{0, 4, 1, 3});
}

TEST_CASE("RMSNorm fused: the loop accumulates, the division follows it", "[mugraph-codegen]") {
  MuGraphCuda c = generateMuGraphCuda(rmsNormFused({.tokens = 4, .in = 64, .out = 16}, 2, 4));
  REQUIRE(c.launches.size() == 1);
  CHECK(c.launches[0].grid == Grid{2, 1, 1});
  const std::string& code = c.source;
  size_t loop = code.find("for (int sl0 = 0; sl0 < 4; ++sl0) {");
  size_t squares = code.find("s += a * a;");
  size_t finish = code.find("= sqrtf(");
  size_t divide = code.find(" / ", finish);
  REQUIRE(loop != std::string::npos);
  REQUIRE(squares != std::string::npos);
  REQUIRE(finish != std::string::npos);
  CHECK(loop < squares);
  CHECK(squares < finish);
  CHECK(finish < divide);
  // The for-loop closes, then the 4 rows' sums of 16 x 4 iterations = 64
  // squares become sqrt(mean + epsilon).
  CHECK_THAT(code, Catch::Contains("  }\n  for (int i = threadIdx.x; i < 4; i += 256) {\n"
                                   "    s3_0[i] = sqrtf(s3_0[i] / 0x1p+6f + "));
}

TEST_CASE("Tensors with disjoint lifetimes share shared memory", "[mugraph-codegen]") {
  KernelGraph g = flashDecoding({}, 2, 2);
  const PartitionedGraph& body = *g.op(3).body;
  mugraphcuda::SharedMemoryPlan plan = mugraphcuda::planSharedMemory(body);
  // Two accumulators first, 16 bytes each; then q's chunk, loaded once before
  // the loop (its fmap is φ) and kept through it; then K's chunk, whose slot
  // exp(QK) takes once the matmul has read it.
  CHECK(plan.accumulatorOffsets == std::vector<int64_t>{0, 16});
  CHECK(plan.offsets[0][0] == 32);
  CHECK(plan.offsets[1][0] == 48);
  CHECK(plan.offsets[4][0] == 48);
  CHECK(plan.offsets[8][0] == -1); // an output accumulator
  int64_t unshared = 32;
  for (const Operator& op : body.ops())
    if (mugraphcuda::needsStorage(op.type)) unshared += 16;
  CHECK(plan.bytes < unshared);
}

TEST_CASE("A block graph beyond 227 KiB of shared memory is refused", "[mugraph-codegen]") {
  AttentionShape s{.heads = 1, .kvHeads = 1, .queryLen = 1, .kvLen = 1024, .headDim = 128};
  try {
    generateMuGraphCuda(flashDecoding(s, 1, 1));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK_THAT(e.what(), Catch::Contains("shared memory"));
  }
}
