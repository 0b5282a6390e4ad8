// launch_gemm.h: which GEMM kernel and tiles planGemm picks, its splits, and the invariants the kernels rely on.
// (LaunchPlanTest.cpp: the convolutions' and attention's planners.)

#include <catch2/catch.hpp>

#include "tcx/launch_gemm.h"

using namespace tcx;

namespace {

GemmProblem rowMajor(int m, int n, int k, ElemType type = ElemType::BF16) {
  GemmProblem p;
  p.type = type, p.m = m, p.n = n, p.k = k;
  p.aStrides[0] = i64{m} * k, p.aStrides[1] = k, p.aStrides[2] = 1;
  p.bStrides[0] = i64{k} * n, p.bStrides[1] = n, p.bStrides[2] = 1;
  return p;
}

void requireSplitInvariants(const GemmPlan& plan) {
  const GemmParams& p = plan.params;
  const int elem = elemBytes(plan.type);
  REQUIRE(p.kPerSplit % smallMKBlock(elem) == 0);
  REQUIRE(i64{p.splitK} * p.kPerSplit >= p.k);
  REQUIRE(i64{p.splitK - 1} * p.kPerSplit < p.k);
  REQUIRE(p.kChunk % 64 == 0);
  REQUIRE(plan.launch.grid[1] == static_cast<unsigned>(p.splitK));
  REQUIRE(plan.launch.sharedBytes >= 8u * plan.mTiles * (p.kChunk + smallMAPadding(plan.bAccess, elem)) * elem);
  REQUIRE((plan.workspaceBytes > 0) == (p.splitK > 1));
  // The resident blocks' staged A fits the multiprocessor.
  REQUIRE(i64{plan.launch.sharedBytes} * smallMMinBlocks(plan.mTiles) <= kSmallMSharedPerSm);
}

// A plan on gemm_small_m: its 8-row tiles of A, B's access, its tiles of 64 columns and its splits of K.
void requireSmallM(const GemmPlan& plan, int mTiles, Access b, unsigned columnTiles, int kPerSplit, int splitK) {
  REQUIRE(plan.kernel == GemmKernel::SmallM);
  REQUIRE(plan.mTiles == mTiles);
  REQUIRE(plan.bAccess == b);
  REQUIRE(plan.launch.block[0] == static_cast<unsigned>(kSmallMThreads));
  CHECK(plan.launch.grid[0] == columnTiles);
  CHECK(plan.params.kPerSplit == kPerSplit);
  CHECK(plan.params.splitK == splitK);
  requireSplitInvariants(plan);
}

} // namespace

TEST_CASE("decode projections take gemm_small_m with split K", "[kernels][launch]") {
  const GemmPlan plan = planGemm(rowMajor(16, 6144, 4096), 132);
  // 96 tiles in 2 splits: 192 blocks, all resident at two per multiprocessor.
  requireSmallM(plan, 2, Access::ColContiguous, 96, 2048, 2);
  // A of the whole split staged at once: one A stage, so the warps' B loads run ahead across it.
  REQUIRE(plan.params.kChunk >= plan.params.kPerSplit);
  REQUIRE(gemmTemplateArgs(plan, "Epi") == "__nv_bfloat16, 2, tcx::Access::ColContiguous, Epi");

  for (int splitK : {1, 2, 3, 7, 1000}) {
    const GemmPlan forced = planGemm(rowMajor(16, 4096, 4096), 132, splitK);
    requireSplitInvariants(forced);
    REQUIRE(forced.params.splitK <= 4096 / smallMKBlock(2) / 8);
  }
  requireSplitInvariants(planGemm(rowMajor(64, 128256, 4096), 132));
  requireSplitInvariants(planGemm(rowMajor(1, 10, 3), 132));
}

TEST_CASE("operand access follows strides and alignment", "[kernels][launch]") {
  GemmProblem p = rowMajor(5, 4096, 4096);
  p.bStrides[1] = 1, p.bStrides[2] = 4096; // a transposed (n, k) weight
  REQUIRE(planGemm(p, 132).bAccess == Access::RowContiguous);
  p.bAligned16 = false;
  REQUIRE(planGemm(p, 132).bAccess == Access::Strided);
  GemmProblem odd = rowMajor(8, 515, 777);
  REQUIRE(planGemm(odd, 132).bAccess == Access::Strided);
  REQUIRE(planGemm(odd, 132).aAccess == Access::Strided);
  REQUIRE(planGemm(rowMajor(8, 512, 776), 132).aAccess == Access::ColContiguous);
}

TEST_CASE("float with at most 16 rows streams B with gemm_small_m in 3xTF32, split along K", "[kernels][launch]") {
  // Llama's projection for 16 tokens, B n-contiguous: 64 tiles of 64 columns, two blocks a
  // multiprocessor want 4 splits of the 256 16-row slices of K; 16 rows of A for a split's 1024
  // columns fit one stage.
  const GemmPlan proj = planGemm(rowMajor(16, 4096, 4096, ElemType::F32), 132);
  requireSmallM(proj, 2, Access::ColContiguous, 64, 1024, 4);
  CHECK(proj.params.kChunk == 1024);
  CHECK(proj.launch.sharedBytes == 16u * (1024 + 4) * 4);
  CHECK(proj.workspaceBytes == static_cast<std::size_t>(kSplitKCounterBytes + 64 * 4 * 16 * 64 * 4));
  CHECK(gemmTemplateArgs(proj, "E") == "float, 2, tcx::Access::ColContiguous, E");
  // Llama's MLP down projection: K = 14336 in 4 splits of 3584 is staged in chunks of 1536 (16
  // rows of floats and the padding in half of the 200 KiB two blocks share).
  GemmProblem down = rowMajor(16, 4096, 14336, ElemType::F32);
  down.bStrides[1] = 1, down.bStrides[2] = 14336;
  const GemmPlan d = planGemm(down, 132);
  requireSmallM(d, 2, Access::RowContiguous, 64, 3584, 4);
  CHECK(d.params.kChunk == 1536);
  // A batch-1 classifier with a transposed weight (Gemm transB): 16 tiles want 16 splits; 80
  // slices of K allow 10, one a warp.
  GemmProblem classifier = rowMajor(1, 1000, 1280, ElemType::F32);
  classifier.bStrides[1] = 1, classifier.bStrides[2] = 1280;
  requireSmallM(planGemm(classifier, 132), 1, Access::RowContiguous, 16, 128, 10);
  INFO("a K of one slice is not split, and needs no workspace; 17 rows of floats take gemm_tiled");
  const GemmPlan one = planGemm(rowMajor(4, 64, 30, ElemType::F32), 132);
  CHECK(one.params.splitK == 1);
  CHECK(one.workspaceBytes == 0);
  CHECK(planGemm(rowMajor(17, 4096, 4096, ElemType::F32), 132).kernel == GemmKernel::Tiled);
}

TEST_CASE("large M and float take gemm_tiled, K split until the tiles fill the GPU", "[kernels][launch]") {
  const GemmPlan big = planGemm(rowMajor(256, 4096, 4096), 132);
  REQUIRE(big.kernel == GemmKernel::Tiled);
  REQUIRE(big.tileRows == kTiledLarge);
  REQUIRE(big.launch.grid[0] == 32);
  REQUIRE(big.launch.grid[1] == 2);
  REQUIRE(big.launch.block[0] == 256);
  REQUIRE(big.launch.sharedBytes == static_cast<unsigned>(tiledSharedBytes(2, kTiledLarge)));
  REQUIRE(gemmTemplateArgs(big, "E") ==
          "__nv_bfloat16, tcx::Access::ColContiguous, tcx::Access::ColContiguous, 128, E");
  INFO("64 tiles on 264 block slots want 4 splits of the 64 K steps of 64");
  CHECK(big.params.splitK == 4);
  CHECK(big.params.kPerSplit == 1024);
  CHECK(big.launch.grid[2] == 4);
  CHECK(big.workspaceBytes == kSplitKCounterBytes + std::size_t{64} * 4 * kTiledLarge * kTiledLarge * 4);
  INFO("65 rows: 32 large tiles of 8 K steps, 256 steps for 132 multiprocessors, take the small tiles");
  const GemmPlan few = planGemm(rowMajor(65, 4096, 512), 132);
  REQUIRE(few.tileRows == kTiledSmall);
  CHECK(few.launch.grid[0] == 64);
  CHECK(few.launch.grid[1] == 2);
  INFO("128 tiles on 528 block slots want 4 splits; 8 K steps allow 4 of at least two steps");
  CHECK(few.params.splitK == 4);
  CHECK(few.params.kPerSplit == 128);

  INFO("ViT's 197 x 768 x 3072 in float: 12 tiles, 96 K steps of 32 in 22 splits of 5 steps (20 splits)");
  const GemmPlan vit = planGemm(rowMajor(197, 768, 3072, ElemType::F32), 132);
  REQUIRE(vit.kernel == GemmKernel::Tiled);
  CHECK(vit.launch.grid[0] == 6);
  CHECK(vit.launch.grid[1] == 2);
  CHECK(vit.params.kPerSplit == 160);
  CHECK(vit.params.splitK == 20);
  CHECK(vit.launch.grid[2] == 20);
  CHECK(vit.launch.sharedBytes == static_cast<unsigned>(tiledSharedBytes(4, kTiledLarge)));
  CHECK(tiledSharedBytes(4, kTiledLarge) == 3 * (128 * 128 + 32 * (128 + kTiledBPadF32) * 4));

  INFO("more tiles than the workspace has counters for: never split");
  const GemmPlan many = planGemm(rowMajor(1, kSmallMTileN * (kSplitKMaxTiles + 1), 4096, ElemType::F32), 132, 8);
  REQUIRE(many.kernel == GemmKernel::SmallM);
  CHECK(many.params.splitK == 1);
  CHECK(many.workspaceBytes == 0);

  INFO("ViT's MLP output at 32 images: 300 tiles for 264 slots, two waves unsplit; K in 3 makes four nearly full");
  const GemmPlan mlp = planGemm(rowMajor(6304, 768, 3072, ElemType::F32), 132);
  CHECK(mlp.params.splitK == 3);
  CHECK(mlp.params.kPerSplit == 1024);
  CHECK(mlp.workspaceBytes == kSplitKCounterBytes + std::size_t{300} * 3 * kTiledLarge * kTiledLarge * 4);
  CHECK(detail::waveSplits(300, 264) == 3);
  CHECK(detail::waveSplits(1024, 264) == 1); // four waves, the last 88% full
  CHECK(detail::waveSplits(1152, 264) == 1); // ViT's q/k/v at 32 images: a split would save 1%

  INFO("enough tiles: no split, no workspace");
  const GemmPlan wide = planGemm(rowMajor(4096, 4096, 4096, ElemType::F32), 132);
  CHECK(wide.params.splitK == 1);
  CHECK(wide.launch.grid[2] == 1);
  CHECK(wide.workspaceBytes == 0);
}

TEST_CASE("float GEMMs with A's k and B's n or k contiguous take wgmma where the code is for sm_90a", "[kernels][launch]") {
  const GemmProblem fc1 = rowMajor(6304, 3072, 768, ElemType::F32);
  const GemmPlan hopper = planGemm(fc1, 132, 0, true);
  REQUIRE(hopper.kernel == GemmKernel::WgmmaF32);
  CHECK(gemmTemplateArgs(hopper, "E") == "tcx::Access::ColContiguous, false, E");
  CHECK(hopper.launch.block[0] == static_cast<unsigned>(kWgmmaThreads));
  CHECK(hopper.launch.sharedBytes == static_cast<unsigned>(wgmmaSharedBytes(false)));
  INFO("one tf32 product a step (a pointwise convolution) stages no remainder of B: two blocks fit a multiprocessor");
  GemmProblem conv1x1 = rowMajor(100352, 128, 256, ElemType::F32);
  conv1x1.bStrides[1] = 1, conv1x1.bStrides[2] = 256;
  conv1x1.tf32 = true;
  const GemmPlan conv = planGemm(conv1x1, 132, 0, true);
  REQUIRE(conv.kernel == GemmKernel::WgmmaF32);
  CHECK(gemmTemplateArgs(conv, "E") == "tcx::Access::RowContiguous, true, E");
  CHECK(conv.launch.sharedBytes == static_cast<unsigned>(wgmmaSharedBytes(true)));
  CHECK(wgmmaMinBlocks(true) * (wgmmaSharedBytes(true) + 1024) <= 228 * 1024);
  CHECK(wgmmaSharedBytes(false) + 1024 > 228 * 1024 / 2);
  INFO("1200 tiles over 132 multiprocessors, one block each: 9.1 waves, no split");
  CHECK(hopper.launch.grid[0] == 24);
  CHECK(hopper.launch.grid[1] == 50);
  CHECK(hopper.params.splitK == 1);
  CHECK(planGemm(fc1, 132).kernel == GemmKernel::Tiled);

  INFO("few tiles: K splits in whole stages until the multiprocessors fill");
  const GemmPlan few = planGemm(rowMajor(197, 768, 3072, ElemType::F32), 132, 0, true);
  REQUIRE(few.kernel == GemmKernel::WgmmaF32);
  CHECK(few.params.splitK == 11);
  CHECK(few.params.kPerSplit % kWgmmaKElems == 0);
  CHECK(i64{few.params.splitK} * few.params.kPerSplit >= 3072);
  CHECK(few.workspaceBytes == kSplitKCounterBytes + std::size_t{12} * 11 * kWgmmaM * kWgmmaN * 4);

  INFO("B with k contiguous (a weight read transposed) too");
  GemmProblem kContiguous = fc1;
  kContiguous.bStrides[1] = 1, kContiguous.bStrides[2] = 768;
  const GemmPlan transposed = planGemm(kContiguous, 132, 0, true);
  CHECK(transposed.kernel == GemmKernel::WgmmaF32);
  CHECK(gemmTemplateArgs(transposed, "E") == "tcx::Access::RowContiguous, false, E");

  INFO("B strided, a row stride wgmma's float4s cannot take, 16-bit or M within gemm_small_m's: not wgmma");
  GemmProblem everyOther = fc1;
  everyOther.bStrides[2] = 2;
  CHECK(planGemm(everyOther, 132, 0, true).kernel == GemmKernel::Tiled);
  CHECK(planGemm(rowMajor(6304, 3071, 768, ElemType::F32), 132, 0, true).kernel == GemmKernel::Tiled);
  CHECK(planGemm(rowMajor(6304, 3072, 768), 132, 0, true).kernel == GemmKernel::Tiled);
  CHECK(planGemm(rowMajor(16, 3072, 768, ElemType::F32), 132, 0, true).kernel == GemmKernel::SmallM);
  INFO("K under 8 stages (ConvNeXt's 100352 x 384 x 96): gemm_tiled's two blocks a multiprocessor");
  CHECK(planGemm(rowMajor(100352, 384, 96, ElemType::F32), 132, 0, true).kernel == GemmKernel::Tiled);

  INFO("in tf32 (a pointwise convolution's GEMM) any K takes wgmma, one product a step; not without wgmma");
  GemmProblem pointwise = rowMajor(256, 3136, 64, ElemType::F32);
  pointwise.batch = 32, pointwise.aStrides[0] = 0, pointwise.bStrides[0] = 64 * 3136;
  pointwise.tf32 = true;
  const GemmPlan tf32 = planGemm(pointwise, 132, 0, true);
  REQUIRE(tf32.kernel == GemmKernel::WgmmaF32);
  CHECK(tf32.tf32);
  CHECK(gemmTemplateArgs(tf32, "E") == "tcx::Access::ColContiguous, true, E");
  CHECK(planGemm(pointwise, 132).kernel == GemmKernel::Tiled);
  pointwise.tf32 = false;
  CHECK(planGemm(pointwise, 132, 0, true).kernel == GemmKernel::Tiled);
  CHECK(planGemm(rowMajor(4096, 768, kWgmmaMinK, ElemType::F32), 132, 0, true).kernel == GemmKernel::WgmmaF32);
}

TEST_CASE("few-row float GEMMs take gemm_tiled's small tiles, even where wgmma could run them", "[kernels][launch]") {
  INFO("ConvNeXt-T's 49 x 3072 x 768 at one image: the small tiles do half the products of the large");
  const GemmPlan fc1 = planGemm(rowMajor(49, 3072, 768, ElemType::F32), 132, 0, true);
  REQUIRE(fc1.kernel == GemmKernel::Tiled);
  REQUIRE(fc1.tileRows == kTiledSmall);
  CHECK(gemmTemplateArgs(fc1, "E") == "float, tcx::Access::ColContiguous, tcx::Access::ColContiguous, 64, E");
  CHECK(fc1.launch.block[0] == static_cast<unsigned>(tiledThreads(kTiledSmall)));
  CHECK(fc1.launch.grid[0] == 48);
  CHECK(fc1.launch.grid[1] == 1);
  CHECK(fc1.launch.sharedBytes == static_cast<unsigned>(tiledSharedBytes(4, kTiledSmall)));
  CHECK(tiledMinBlocks(kTiledSmall) * (tiledSharedBytes(4, kTiledSmall) + 1024) <= 228 * 1024);
  INFO("48 tiles on 528 block slots want 11 splits of 24 K steps: 8 of 3 steps");
  CHECK(fc1.params.splitK == 8);
  CHECK(fc1.workspaceBytes == kSplitKCounterBytes + std::size_t{48} * 8 * kTiledSmall * kTiledSmall * 4);
  INFO("a launch names its kernel and tiles");
  CHECK(gemmKernelName(fc1) == "gemm_tiled 64x64");
  CHECK(gemmKernelName(planGemm(rowMajor(4096, 4096, 4096, ElemType::F32), 132)) == "gemm_tiled 128x128");
  CHECK(gemmKernelName(planGemm(rowMajor(4096, 4096, 4096, ElemType::F32), 132, 0, true)) == "gemm_wgmma_f32");
  CHECK(gemmKernelName(planGemm(rowMajor(16, 4096, 4096), 132)) == "gemm_small_m");

  INFO("196 x 384 x 1536: as many products either way, but 288 large steps for 132 multiprocessors");
  const GemmPlan fc2 = planGemm(rowMajor(196, 384, 1536, ElemType::F32), 132, 0, true);
  CHECK(fc2.tileRows == kTiledSmall);
  CHECK(fc2.params.splitK == 16);
  INFO("64 rows: half the products whatever the work");
  CHECK(planGemm(rowMajor(64, 4096, 4096, ElemType::F32), 132, 0, true).tileRows == kTiledSmall);

  INFO("ViT's 197 x 3072 x 768: 1152 large steps, wgmma's; gemm_tiled's large tiles without wgmma");
  CHECK(planGemm(rowMajor(197, 3072, 768, ElemType::F32), 132, 0, true).kernel == GemmKernel::WgmmaF32);
  const GemmPlan plain = planGemm(rowMajor(197, 3072, 768, ElemType::F32), 132);
  CHECK(plain.kernel == GemmKernel::Tiled);
  CHECK(plain.tileRows == kTiledLarge);

  INFO("forced: each kernel where it can run");
  const GemmProblem vit = rowMajor(197, 3072, 768, ElemType::F32);
  CHECK(planGemm(vit, 132, 0, true, GemmForce::TiledSmall).tileRows == kTiledSmall);
  CHECK(planGemm(vit, 132, 0, true, GemmForce::TiledLarge).tileRows == kTiledLarge);
  CHECK(planGemm(rowMajor(49, 3072, 768, ElemType::F32), 132, 0, true, GemmForce::Wgmma).kernel ==
        GemmKernel::WgmmaF32);
  CHECK(planGemm(rowMajor(49, 3072, 768), 132, 0, true, GemmForce::Wgmma).kernel == GemmKernel::Tiled);
  CHECK(planGemm(rowMajor(8, 3072, 768), 132, 0, false, GemmForce::TiledLarge).kernel == GemmKernel::Tiled);
}
