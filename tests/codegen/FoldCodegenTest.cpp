// Which kernel a fold becomes, checked without a GPU: a reduction's output
// element or a row-wise op's row as a block, a warp, or a lane of a block of
// 32 rows (core/codegen/FoldKernels.cpp; ValueCode picks). GPU execution of
// the same forms is checked against the CPU reference in tests/gpu.
#include "CodegenTestUtil.h"

#include "codegen/CudaCodegen.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("a reduction over the innermost axes folds with a block per output element", "[codegen]") {
  // Squeeze-excitation's mean over H×W (EfficientNet-B0's first: 32 outputs
  // of 12,544 elements each), and a mean over the channels (the outer axis,
  // 12,544 outputs of 32 elements), which keeps one thread per output.
  GraphBuilder b("squeeze");
  Value* x = b.input("x", DType::F32, {1, 32, 112, 112});
  b.output(b.op("ReduceMean", {x, b.ints("hw", {2, 3})}));
  b.output(b.op("ReduceMean", {x, b.ints("c", {1})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  GeneratedPlan code = generateCuda(s.baselinePlan());
  const std::vector<GeneratedLaunch> blockFolds = launchesDescribed(code, "a block per element");
  REQUIRE(blockFolds.size() == 1);
  CHECK(blockFolds[0].grid[0] == 32);
  CHECK(blockFolds[0].block[0] == 256);
  CHECK(countOccurrences(code.source, "__shared__ _A _part[256]") == 1);
}

TEST_CASE("a reduction of fewer elements than a block, or of many short folds, takes a warp per output", "[codegen]") {
  // SqueezeNet's global mean at 32 images: 32,000 outputs of 13 x 13, a warp
  // each (a block would idle 87 of its 256 threads), 8 a block. A mean of 512
  // elements into 8 outputs is too few warps to overlap their load chains:
  // a block each.
  GraphBuilder b("means");
  b.output(b.op("ReduceMean", {b.input("x", DType::F32, {32, 1000, 13, 13}), b.ints("hw", {2, 3})}));
  b.output(b.op("ReduceMean", {b.input("few", DType::F32, {1, 8, 512}), b.ints("last", {2})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  GeneratedPlan code = generateCuda(s.baselinePlan());
  const std::vector<GeneratedLaunch> warps = launchesDescribed(code, "a warp per element");
  REQUIRE(warps.size() == 1);
  CHECK(warps[0].grid[0] == 32000 / 8);
  CHECK(warps[0].block[0] == 256);
  CHECK(countOccurrences(code.source, "__shfl_xor_sync(0xffffffffu, _acc, _s)") == 1);
  const std::vector<GeneratedLaunch> blocks = launchesDescribed(code, "a block per element");
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].grid[0] == 8);
}

TEST_CASE("row-wise ops run a warp per row where rows are many or short, else a block per row", "[codegen]") {
  // ViT's attention scores (12 x 197 rows of 197) a warp per row, 8 rows a
  // block. Its batch-1 LayerNorm (197 rows of 768) is too few rows for the
  // 132 multiprocessors to overlap warps' load chains: a block per row, as
  // for rows of 4096. A softmax over rows of 8 keeps a thread per element.
  GraphBuilder b("rows");
  Value* hidden = b.input("hidden", DType::F32, {1, 197, 768});
  b.output(b.op("LayerNormalization", {hidden, b.input("scale", DType::F32, {768}), b.input("bias", DType::F32, {768})},
                attrs({{"axis", -1}})));
  b.output(b.op("Softmax", {b.input("scores", DType::F32, {1, 12, 197, 197})}));
  b.output(b.op("Softmax", {b.input("long", DType::F32, {3, 4096})}));
  b.output(b.op("Softmax", {b.input("short", DType::F32, {64, 8})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  GeneratedPlan code = generateCuda(s.baselinePlan());
  const std::vector<GeneratedLaunch> warps = launchesDescribed(code, "a warp per row");
  REQUIRE(warps.size() == 1);
  CHECK(warps[0].grid[0] == (12 * 197 + 7) / 8);
  CHECK(warps[0].block[0] == 256);
  // Softmax's max and sum, each combined across the warp.
  CHECK(countOccurrences(code.source, "__shfl_xor_sync(0xffffffffu, _acc, _s)") == 2);
  const std::vector<GeneratedLaunch> blocks = launchesDescribed(code, "a block per row");
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].grid[0] == 197);
  CHECK(blocks[1].grid[0] == 3);
  CHECK(blocks[1].block[0] == 256);
  // Two statistics folded through shared memory in each block-per-row kernel.
  CHECK(countOccurrences(code.source, " _part1[256];") == 2);
  // Each output is stored where it belongs by its stage, with no store kernel.
  CHECK(countLaunches(code, "store") == 0);
  CHECK(code.scratchBytes.empty());

  // At 32 images the same LayerNorm has 6304 rows, 48 a multiprocessor: a warp per row.
  GraphBuilder served("served_rows");
  served.output(served.op("LayerNormalization",
                          {served.input("hidden", DType::F32, {32, 197, 768}),
                           served.input("scale", DType::F32, {768}), served.input("bias", DType::F32, {768})},
                          attrs({{"axis", -1}})));
  VtcSession t(served.finish(), defaultGpuPreset());
  const std::vector<GeneratedLaunch> servedWarps = launchesDescribed(generateCuda(t.baselinePlan()), "a warp per row");
  REQUIRE(servedWarps.size() == 1);
  CHECK(servedWarps[0].grid[0] == 32 * 197 / 8);
}

TEST_CASE("a row-wise op over rows side by side in memory runs 32 rows a block and stores its output itself",
          "[codegen]") {
  // ConvNeXt's LayerNorm across the channels of an NCHW activation, which the
  // optimised plan reads through the Permute's mapping: 4200 rows, each of
  // 20 elements 4200 apart, loaded a row a lane into a shared tile. The stage writes the graph output where it
  // belongs: no store kernel copies it from a scratch buffer.
  GraphBuilder b("channels_last_rows");
  Value* nhwc = b.op("Transpose", {b.input("nchw", DType::F32, {1, 20, 60, 70})},
                     attrs({{"perm", std::vector<int64_t>{0, 2, 3, 1}}}));
  b.output(b.op("LayerNormalization", {nhwc, b.input("scale", DType::F32, {20}), b.input("bias", DType::F32, {20})},
                attrs({{"axis", -1}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan optimized = generateCuda(s.optimizedPlan());
  const std::vector<GeneratedLaunch> rows = launchesDescribed(optimized, "32 rows a block, a row a lane");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].grid[0] == (4200 + 31) / 32);
  CHECK(rows[0].block[0] == 256);
  CHECK(rows[0].sharedBytes == 32 * (20 + 1) * 4); // the block's rows, padded
  CHECK(countLaunches(optimized, "store") == 0);
  CHECK(optimized.scratchBytes.empty());
  // The baseline copies the transpose first; its LayerNorm reads rows of
  // consecutive elements, too short for a block per row.
  GeneratedPlan baseline = generateCuda(s.baselinePlan());
  CHECK(launchesDescribed(baseline, "32 rows a block").empty());
  CHECK(countLaunches(baseline, "stage node 'LayerNormalization_1' (LayerNormalization)") == 1);
}
