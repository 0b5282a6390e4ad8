// launch.h: the convolutions' and attention's planners' choices and the invariants the kernels rely on.
// (GemmPlanTest.cpp: the GEMMs'.)

#include <catch2/catch.hpp>

#include "tcx/launch.h"

using namespace tcx;

TEST_CASE("attention plans one wave of blocks over KV head groups and chunks", "[kernels][launch]") {
  AttentionProblem llama;
  llama.batch = 16, llama.heads = 32, llama.kvHeads = 8, llama.sq = 1, llama.skv = 4096, llama.headDim = 128;
  const AttentionPlan plan = planAttention(llama, 132);
  const AttentionParams& p = plan.params;
  REQUIRE(plan.rowTiles == 1);
  REQUIRE(p.rowGroups == 1);
  // 16 batches x 1 group of 8 KV heads; 8 chunks of 512 give 128 items, one per block.
  REQUIRE(p.chunkLen == 512);
  REQUIRE(p.numChunks == 8);
  REQUIRE(plan.partial.grid[0] == 128);
  REQUIRE(plan.partial.grid[1] == 1);
  REQUIRE(plan.partial.block[0] == kAttentionThreads);
  REQUIRE(plan.partial.sharedBytes == static_cast<unsigned>(attentionSharedBytes(128, 1)));
  REQUIRE(plan.combine.grid[0] * (kCombineThreads / 32) == 16 * 32);
  // (max, sum) as floats, then o in bf16: 1.03 MiB for the 4096 partials (2.06 MiB as floats).
  REQUIRE(plan.workspaceBytes == static_cast<std::size_t>(16 * 32 * 8 * (8 + 128 * 2)));
  REQUIRE(attentionTemplateArgs(llama, plan, "S") == "__nv_bfloat16, 128, 1, S");
  REQUIRE(combineTemplateArgs(llama, "O") == "__nv_bfloat16, 128, O");

  AttentionProblem wide = llama;
  wide.heads = 16, wide.kvHeads = 2, wide.sq = 16; // 128 query rows per KV head
  const AttentionPlan rows = planAttention(wide, 132, 100);
  REQUIRE(rows.rowTiles == 2);
  REQUIRE(rows.params.rowGroups == 4);
  REQUIRE(rows.params.chunkLen == 100);
  REQUIRE(rows.params.numChunks == 41);
  wide.headDim = 256;
  REQUIRE(planAttention(wide, 132).rowTiles == 1);
  wide.headDim = 64;
  REQUIRE(planAttention(wide, 132).rowTiles == 4);

  AttentionProblem many = llama; // more items than blocks: each block takes a run of them
  many.batch = 512;
  const AttentionPlan big = planAttention(many, 132);
  REQUIRE(big.params.numChunks == 1);
  REQUIRE(big.partial.grid[0] == 132);
}

TEST_CASE("attention's panel ring fits shared memory", "[kernels][launch]") {
  for (int headDim : {64, 128, 256})
    for (int rowTiles = 1; rowTiles * headDim <= 256; ++rowTiles) {
      // K and V of a step at least, and every panel 16-byte aligned for the bulk copies.
      REQUIRE(attentionPanels(headDim, rowTiles) >= 2);
      REQUIRE(attentionPanelPitch(headDim) * 2 % 16 == 0);
      REQUIRE(attentionSharedBytes(headDim, rowTiles) <= 227 * 1024);
    }
  // Llama-3's decode (head dim 128, one row tile): three steps of K and V in the ring.
  REQUIRE(attentionPanels(128, 1) == 6);
  REQUIRE(attentionPanels(256, 1) == 2);
  // Position rows 16 bytes past a multiple of 128: the 8 rows one ldmatrix reads hit distinct banks.
  REQUIRE(attentionPanelPitch(128) * 2 % 128 == 16);
}

TEST_CASE("the fp32 attention takes a block per head and 64 query rows", "[kernels][launch]") {
  AttentionProblem vit;
  vit.type = ElemType::F32, vit.batch = 32, vit.heads = vit.kvHeads = 12, vit.sq = vit.skv = 197, vit.headDim = 64;
  const LaunchConfig launch = planF32Attention(vit);
  REQUIRE(launch.grid[0] == 4 * 12 * 32); // 197 rows: 4 tiles of 64, the last of 5
  REQUIRE(launch.block[0] == kF32AttentionThreads);
  // Q (64 rows) and two stages of V (32 positions each) in rows of 64 + 4 floats; two stages of K in the
  // larger of its layouts: 64 rows of d of 32 + 8 floats against 32 rows of 68.
  REQUIRE(f32AttentionKFloats(64) == 64 * 40);
  REQUIRE(launch.sharedBytes == 4 * (68 * (64 + 2 * 32) + 2 * 64 * 40));
  // At d = 128 K staged transposed (128 rows of 40 floats) is the larger of K's two layouts; every head
  // dim fits a block's shared memory.
  REQUIRE(f32AttentionKFloats(128) == 128 * 40);
  for (int headDim = 8; headDim <= 128; headDim += 8) {
    REQUIRE(f32AttentionSharedBytes(headDim) <= 227 * 1024);
    // The launch bounds' blocks a multiprocessor all fit its shared memory.
    REQUIRE(f32AttentionMinBlocks(headDim) * f32AttentionSharedBytes(headDim) <= 227 * 1024);
  }
  REQUIRE(f32AttentionMinBlocks(64) == 4);
  REQUIRE(f32AttentionMinBlocks(128) == 2);
}

namespace {

// A dense NCHW convolution of 3 x 3 (pad 1) or 1 x 1 kernels.
ConvParams denseConv(int batch, int cin, int size, int cout, int kernel) {
  ConvParams p = {};
  p.batch = batch, p.cin = cin, p.h = p.width = p.oh = p.ow = size, p.cout = cout;
  p.kh = p.kw = kernel, p.strideH = p.strideW = p.dilationH = p.dilationW = 1, p.padH = p.padW = kernel / 2;
  p.xStride[3] = 1, p.xStride[2] = size, p.xStride[1] = i64{size} * size, p.xStride[0] = i64{cin} * size * size;
  p.wStride[3] = 1, p.wStride[2] = kernel, p.wStride[1] = i64{kernel} * kernel, p.wStride[0] = i64{cin} * kernel * kernel;
  return p;
}

} // namespace

TEST_CASE("float convolutions take the staged path with bank-conflict-free stages", "[kernels][launch]") {
  const ConvPlan plan = planConv(denseConv(16, 64, 160, 64, 3), ElemType::F32, true, true, 132);
  REQUIRE(plan.path == ConvPath::Staged);
  CHECK(plan.params.vectorX == 1);
  CHECK(plan.params.vectorW == 1);
  const ConvHaloGeometry geo = convHaloGeometry(plan.params);
  // 4 x 32 tiles cover 160 x 160 exactly; 8 channels of 3 x 3 taps a stage.
  CHECK(geo.tileH == 4);
  CHECK(geo.tileW == 32);
  CHECK(geo.chunkC == 8);
  CHECK(geo.haloRows == 6);
  CHECK(plan.launch.grid[0] == 16u * 40 * 5);
  CHECK(geo.channelFloats % 16 == 8);
  CHECK(geo.weightPitch % 8 == 4);
  CHECK((geo.lead + geo.pitch) % 4 == geo.lead % 4);
  CHECK(plan.launch.sharedBytes <= kConvHaloMaxBytes);

  // A flattened pointwise convolution: one row of 128 pixels a tile, 32 channels a stage.
  ConvParams flat = denseConv(16, 64, 160, 128, 1);
  flat.h = flat.oh = 1, flat.width = flat.ow = 160 * 160, flat.xStride[2] = 0;
  flat.wStride[2] = flat.wStride[3] = 0; // as codegen's views give size-1 dimensions
  const ConvPlan flatPlan = planConv(flat, ElemType::F32, true, true, 132);
  CHECK(flatPlan.params.vectorX == 1);
  CHECK(flatPlan.params.vectorW == 1);
  const ConvHaloGeometry pointwise = convHaloGeometry(flatPlan.params);
  CHECK(pointwise.tileW == 128);
  CHECK(pointwise.chunkC == 32);
  CHECK(pointwise.lead == 0);
}

TEST_CASE("convolutions with few tiles split K until the tiles fill the GPU", "[kernels][launch]") {
  INFO("ResNet's last 3 x 3 512 -> 512 on 7 x 7: one pixel tile x 8 channel tiles on 264 block slots want 33 "
       "splits; 64 chunks of 8 channels allow 32 of two chunks");
  const ConvPlan last = planConv(denseConv(1, 512, 7, 512, 3), ElemType::F32, true, true, 132);
  REQUIRE(last.path == ConvPath::Staged);
  CHECK(last.params.splitK == 32);
  CHECK(last.params.stepsPerSplit == 2);
  CHECK(last.launch.grid[0] == 8u);
  CHECK(last.launch.grid[1] == 32u);
  CHECK(last.workspaceBytes == detail::splitKWorkspaceBytes(i64{8} * 32 * kConvTileM * kConvTileN));

  INFO("gathered bf16, 196 pixels x 512 channels: 16 tiles want 16 splits of 36 K steps of 64: 12 of three steps");
  const ConvPlan gathered = planConv(denseConv(1, 256, 14, 512, 3), ElemType::BF16, true, true, 132);
  REQUIRE(gathered.path == ConvPath::Gathered);
  CHECK(gathered.params.splitK == 12);
  CHECK(gathered.params.stepsPerSplit == 3);
  CHECK(gathered.launch.grid[1] == 12u);

  INFO("a forced split of one, and enough tiles: no split, no workspace");
  CHECK(planConv(denseConv(1, 512, 7, 512, 3), ElemType::F32, true, true, 132, 1).workspaceBytes == 0);
  const ConvPlan many = planConv(denseConv(16, 64, 160, 64, 3), ElemType::F32, true, true, 132);
  CHECK(many.params.splitK == 1);
  CHECK(many.workspaceBytes == 0);
}

TEST_CASE("convolution views that are not dense copy element by element", "[kernels][launch]") {
  ConvParams p = denseConv(3, 12, 20, 70, 3);
  p.xStride[1] = 437; // a channel slice of an odd-sized image
  const ConvPlan strided = planConv(p, ElemType::F32, true, true, 132);
  CHECK(strided.path == ConvPath::Staged);
  CHECK(strided.params.vectorX == 0);
  CHECK(planConv(denseConv(3, 12, 20, 70, 3), ElemType::F32, false, true, 132).params.vectorX == 0);
  CHECK(planConv(denseConv(3, 12, 20, 70, 3), ElemType::BF16, true, true, 132).path == ConvPath::Gathered);
  // Large kernels whose stages would not fit two blocks a multiprocessor gather, and so does a
  // stem whose K (3 x 11 x 11) is past the window path's.
  CHECK(planConv(denseConv(1, 8, 224, 64, 11), ElemType::F32, true, true, 132).path == ConvPath::Gathered);
  CHECK(planConv(denseConv(1, 3, 224, 64, 11), ElemType::F32, true, true, 132).path == ConvPath::Gathered);
}

TEST_CASE("stems over few input channels walk K whole on the window path", "[kernels][launch]") {
  INFO("SqueezeNet's 7 x 7 stride-2 stem, 3 -> 96 channels, at 32 images: 16 x 8 tiles cover the 109 x 109 output "
       "in 112 x 112 pixels (128 x 1 tiles would take 109 x 128)");
  ConvParams stem = denseConv(32, 3, 224, 96, 7);
  stem.padH = stem.padW = 0, stem.strideH = stem.strideW = 2, stem.oh = stem.ow = 109;
  const ConvPlan plan = planConv(stem, ElemType::F32, true, true, 132);
  REQUIRE(plan.path == ConvPath::Window);
  const ConvHaloGeometry geo = convHaloGeometry(plan.params, ConvPath::Window);
  CHECK(geo.tileW == 16);
  CHECK(geo.tileH == 8);
  CHECK(geo.chunkC == 3);
  CHECK(geo.weightPitch == 3 * 7 * 8 + 4); // kernel rows padded to 8 taps, then the bank padding
  CHECK(geo.haloRows == 7 * 2 + 7);
  CHECK(geo.pitch == 40);
  CHECK(plan.launch.sharedBytes == 4u * (64 * 172 + 2 * 3 * geo.channelFloats));
  CHECK(plan.launch.sharedBytes <= static_cast<unsigned>(kConvHaloMaxBytes));
  INFO("two blocks a multiprocessor (the second channel tile's warps are half idle), each walking every 132nd of "
       "the 32 x 98 pixel tiles for one of 2 channel tiles");
  CHECK(plan.minBlocks == 2);
  CHECK(plan.launch.grid[0] == 2u * 132);
  CHECK(plan.launch.grid[1] == 1u);
  CHECK(plan.params.splitK == 1);
  CHECK(plan.workspaceBytes == 0);

  INFO("ResNet's stem (3 -> 64, 112 x 112 in 16 x 8 tiles, one channel tile): three blocks a multiprocessor; at 5 "
       "images, 490 tiles, a block for each of 396 slots; at 4, 392 tiles would leave slots idle, and at one image "
       "the gathered path splits K");
  ConvParams resnet = denseConv(5, 3, 224, 64, 7);
  resnet.strideH = resnet.strideW = 2, resnet.oh = resnet.ow = 112;
  const ConvPlan five = planConv(resnet, ElemType::F32, true, true, 132);
  REQUIRE(five.path == ConvPath::Window);
  CHECK(five.minBlocks == 3);
  CHECK(five.launch.grid[0] == 3u * 132);
  CHECK(five.launch.sharedBytes <= static_cast<unsigned>(kConvWindowMaxBytes));
  resnet.batch = 4;
  CHECK(planConv(resnet, ElemType::F32, true, true, 132).path == ConvPath::Gathered);
  resnet.batch = 1;
  const ConvPlan one = planConv(resnet, ElemType::F32, true, true, 132);
  REQUIRE(one.path == ConvPath::Gathered);
  CHECK(one.params.splitK > 1);
  INFO("a 3 x 3 stem reads its kernel rows as 4 taps: K 3 x 3 x 4 = 36, padded to 40");
  ConvParams small = denseConv(32, 3, 224, 32, 3);
  small.strideH = small.strideW = 2, small.oh = small.ow = 112;
  const ConvPlan three3 = planConv(small, ElemType::F32, true, true, 132);
  REQUIRE(three3.path == ConvPath::Window);
  CHECK(convHaloGeometry(three3.params, ConvPath::Window).weightPitch == 40 + 4);
  INFO("8 input channels fill the staged path's steps; 16-bit types gather");
  CHECK(planConv(denseConv(1, 8, 112, 32, 3), ElemType::F32, true, true, 132).path == ConvPath::Staged);
  CHECK(planConv(stem, ElemType::BF16, true, true, 132).path == ConvPath::Gathered);
}

TEST_CASE("depthwise convolutions run a thread an output over NCHW, in shared tiles over channels-last x",
          "[kernels][launch]") {
  ConvParams p = denseConv(32, 1, 56, 1, 7);
  p.groups = 96;
  p.xStride[0] = i64{96} * 56 * 56;
  const DepthwisePlan rows = planDepthwise(p, 132);
  CHECK_FALSE(rows.tiled);
  CHECK(rows.launch.grid[0] == 32u * 96 * 56 * 56 / kDepthwiseThreads);
  CHECK(rows.launch.block[0] == static_cast<unsigned>(kDepthwiseThreads));
  INFO("channels-last: ConvNeXt's first depthwise reads its stem's output through a transpose; 8 channels a block");
  p.xStride[1] = 1, p.xStride[2] = i64{56} * 96, p.xStride[3] = 96;
  const DepthwisePlan channels = planDepthwise(p, 132);
  CHECK(channels.tiled);
  CHECK(channels.params.tileChannels == 8);
  CHECK(channels.launch.grid[1] == 12u);
  CHECK(channels.launch.grid[2] == 32u);
  CHECK(channels.launch.grid[0] == static_cast<unsigned>((56 + channels.params.tileRows - 1) / channels.params.tileRows));
  CHECK(channels.launch.sharedBytes == static_cast<unsigned>(depthwiseSharedBytes(channels.params, channels.params.tileRows, 8)));
  CHECK(channels.launch.sharedBytes <= static_cast<unsigned>(kDepthwiseTileBytes));
  CHECK(depthwiseSharedBytes(channels.params, channels.params.tileRows + 1, 8) > kDepthwiseTileBytes);
  INFO("one image: the rows split until every multiprocessor has two blocks");
  p.batch = 1;
  const DepthwisePlan split = planDepthwise(p, 132);
  CHECK(split.launch.grid[0] * split.launch.grid[1] >= 2 * 132u);
  CHECK(split.params.tileRows < channels.params.tileRows);
}

TEST_CASE("small images at a large batch gather in tiles that run across images", "[kernels][launch]") {
  INFO("ResNet's last stage at 32 images: staged, 32 tiles of 49 pixels; gathered, 13 tiles of 128");
  const ConvPlan last = planConv(denseConv(32, 512, 7, 512, 3), ElemType::F32, true, true, 132);
  CHECK(last.path == ConvPath::Gathered);
  CHECK(last.launch.grid[0] == 13u * 8);
  INFO("one image: the tiles are as many either way, and the staged path copies less");
  CHECK(planConv(denseConv(1, 512, 7, 512, 3), ElemType::F32, true, true, 132).path == ConvPath::Staged);
  INFO("14 x 14 at 32 images: 64 staged tiles against 49 gathered, staged");
  CHECK(planConv(denseConv(32, 256, 14, 256, 3), ElemType::F32, true, true, 132).path == ConvPath::Staged);
}
