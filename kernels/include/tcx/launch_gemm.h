#pragma once
// The GEMM kernels' host-side planner (launch.h says how codegen instantiates and launches them):
// which of gemm_small_m, gemm_tiled (and its tile) and gemm_wgmma_f32 runs a problem, its template
// arguments, grid, K split and workspace. Plain C++20.

#include "tcx/launch_base.h"

namespace tcx {

// The views as the kernel will read them; strides in elements, (batch, row, col).
struct GemmProblem {
  ElemType type = ElemType::BF16;
  int batch = 1, m = 0, n = 0, k = 0;
  i64 aStrides[3] = {}; // A (batch, m, k)
  i64 bStrides[3] = {}; // B (batch, k, n)
  bool aAligned16 = true; // base pointer, with its offset, 16-byte aligned
  bool bAligned16 = true;
  // Float may run as one tf32 product (a convolution's contraction, as cuDNN runs it): on
  // gemm_wgmma_f32, whatever K; every other kernel keeps fp32's accuracy.
  bool tf32 = false;
};

// The fast path an operand qualifies for (the alignment rules are in abi.h).
constexpr Access operandAccess(const i64 (&strides)[3], bool aligned16, int batch, ElemType type) {
  const i64 vec = 16 / elemBytes(type);
  const bool batchOk = batch == 1 || strides[0] % vec == 0;
  if (aligned16 && batchOk && strides[2] == 1 && strides[1] % vec == 0)
    return Access::ColContiguous;
  if (aligned16 && batchOk && strides[1] == 1 && strides[2] % vec == 0)
    return Access::RowContiguous;
  return Access::Strided;
}

enum class GemmKernel { SmallM, Tiled, WgmmaF32 };
// planGemm's choice, or one kernel it is told to take.
enum class GemmForce { None, Wgmma, TiledLarge, TiledSmall };

struct GemmPlan {
  GemmKernel kernel = GemmKernel::Tiled;
  ElemType type = ElemType::BF16;
  int mTiles = 0; // gemm_small_m's MT
  int tileRows = 0; // gemm_tiled's kTileRows
  bool tf32 = false; // gemm_wgmma_f32's Tf32
  Access aAccess = Access::Strided;
  Access bAccess = Access::Strided;
  LaunchConfig launch = {};
  GemmParams params = {}; // all but a.data, b.data and workspace
  std::size_t workspaceBytes = 0;
};

namespace detail {

// The block shape of a kernel that computes whole output tiles (gemm_tiled, gemm_wgmma_f32).
struct OutputTiles {
  int m, n;        // a tile's rows and columns
  int kElems;      // K a step
  int blocksPerSm; // resident blocks a multiprocessor
  int threads;
  int sharedBytes;
};

// The grid, K split and workspace of `plan` for blocks of `shape`. K splits when the tiles alone
// leave multiprocessors idle (ViT's 197 x 768 outputs are 12 tiles), up to the resident blocks,
// each split at least two K steps; with more tiles than that, when their last wave would leave
// most of them idle (waveSplits). splitK > 0 forces the splits.
inline void planOutputTiles(GemmPlan& plan, const GemmProblem& pr, int smCount, int splitK, const OutputTiles& shape) {
  GemmParams& p = plan.params;
  const i64 tiles = ceilDiv(pr.n, shape.n) * ceilDiv(pr.m, shape.m) * pr.batch;
  const i64 steps = ceilDiv(pr.k, shape.kElems);
  const i64 resident = i64{shape.blocksPerSm} * smCount;
  const i64 wanted =
      splitsFor(splitK > 0 ? splitK : tiles < resident ? resident / tiles : waveSplits(tiles, resident), tiles);
  const i64 splitSteps = stepsPerSplit(steps, wanted);
  p.kPerSplit = static_cast<int>(splitSteps * shape.kElems);
  p.splitK = static_cast<int>(ceilDiv(steps, splitSteps));
  plan.launch = launch1d(ceilDiv(pr.n, shape.n), ceilDiv(pr.m, shape.m), i64{pr.batch} * p.splitK, shape.threads,
                         shape.sharedBytes);
  if (p.splitK > 1)
    plan.workspaceBytes = splitKWorkspaceBytes(tiles * p.splitK * shape.m * shape.n);
}

} // namespace detail

// gemm_small_m's dynamic shared memory: staged A, or the warps' reduction scratch and the tile.
constexpr i64 smallMSharedBytes(int mTiles, int kChunk, Access b, ElemType type) {
  const i64 staged = i64{8} * mTiles * (kChunk + smallMAPadding(b, elemBytes(type))) * elemBytes(type);
  const i64 scratch = i64{kSmallMThreads / 64} * 16 * mTiles * 32 * 4;
  return std::max(staged, scratch);
}

// gemm_tiled's tile rows for `pr` (abi.h says why there are two): the small tiles where the large
// ones hold at most kSmallTilesStepsPerSm of their K steps a multiprocessor, so that they would
// split K many ways and one block would sum many large partial tiles, or where the small tiles
// are at most twice as many, so do at most half the products (M at most 64: the large tiles'
// rows past M are products too). On an H200 in 3xTF32 (docs/benchmarks.md, "Small tiles for
// few-row float GEMMs") the small tiles took 49 x 3072 x 768 in 16.7 us against wgmma's 20.0,
// 196 x 384 x 1536 in 18.9 against 25.6, 64 x 4096 x 4096 in 55.1 against 60.5; at 197 x 3072 x
// 768 (9 large steps a multiprocessor) wgmma was ahead, 31.3 against 34.5.
inline constexpr int kSmallTilesStepsPerSm = 4;
inline int tiledRowsFor(const GemmProblem& pr, int smCount) {
  using detail::ceilDiv;
  const i64 steps = ceilDiv(pr.k, tiledKElems(elemBytes(pr.type)));
  const i64 large = ceilDiv(pr.n, kTiledLarge) * ceilDiv(pr.m, kTiledLarge) * pr.batch;
  const i64 small = ceilDiv(pr.n, kTiledSmall) * ceilDiv(pr.m, kTiledSmall) * pr.batch;
  return large * steps <= i64{kSmallTilesStepsPerSm} * smCount || small <= 2 * large ? kTiledSmall : kTiledLarge;
}

// splitK == 0 picks it: the most splits whose blocks are all resident at once (smallMMinBlocks per
// multiprocessor), so no tail wave streams with a few blocks; that measured best at 16 x 4096 x
// 6144 on an H200 (kernels/README.md). Each split keeps at least one slice of K per warp.
// `wgmma`: the code is compiled for sm_90a, so float GEMMs whose A has k contiguous and B n or k
// take gemm_wgmma_f32 where K is at least kWgmmaMinK, or any K in tf32 (one product a step: no
// 3xTF32 cost to amortise), unless gemm_tiled would take its small tiles.
// `force` takes one kernel whatever the problem (wgmma still needs its operands' access), so that the
// benchmarks can compare them.
inline GemmPlan planGemm(const GemmProblem& pr, int smCount, int splitK = 0, bool wgmma = false,
                         GemmForce force = GemmForce::None) {
  using namespace detail;
  GemmPlan plan;
  plan.type = pr.type;
  plan.aAccess = operandAccess(pr.aStrides, pr.aAligned16, pr.batch, pr.type);
  plan.bAccess = operandAccess(pr.bStrides, pr.bAligned16, pr.batch, pr.type);
  GemmParams& p = plan.params;
  p.a = {nullptr, pr.aStrides[0], pr.aStrides[1], pr.aStrides[2]};
  p.b = {nullptr, pr.bStrides[0], pr.bStrides[1], pr.bStrides[2]};
  p.batch = pr.batch, p.m = pr.m, p.n = pr.n, p.k = pr.k;
  p.splitK = 1, p.kPerSplit = pr.k, p.kChunk = 0;

  const bool smallM =
      force == GemmForce::None && pr.m <= (pr.type == ElemType::F32 ? kSmallMMaxRowsF32 : kSmallMMaxRows);
  const int rows = force == GemmForce::TiledLarge ? kTiledLarge
                   : force == GemmForce::TiledSmall ? kTiledSmall
                                                    : tiledRowsFor(pr, smCount);
  const bool wgmmaFits = wgmma && pr.type == ElemType::F32 && plan.aAccess == Access::ColContiguous &&
                         plan.bAccess != Access::Strided;
  const bool wgmmaChosen = force == GemmForce::None && !smallM && (pr.tf32 || pr.k >= kWgmmaMinK) &&
                           (pr.tf32 || rows == kTiledLarge);
  if (wgmmaFits && (force == GemmForce::Wgmma || wgmmaChosen)) {
    plan.kernel = GemmKernel::WgmmaF32;
    plan.tf32 = pr.tf32;
    planOutputTiles(plan, pr, smCount, splitK,
                    {kWgmmaM, kWgmmaN, kWgmmaKElems, wgmmaMinBlocks(pr.tf32), kWgmmaThreads,
                     wgmmaSharedBytes(pr.tf32)});
    return plan;
  }
  if (!smallM) {
    plan.kernel = GemmKernel::Tiled;
    plan.tileRows = rows;
    planOutputTiles(plan, pr, smCount, splitK,
                    {rows, rows, tiledKElems(elemBytes(pr.type)), tiledMinBlocks(rows), tiledThreads(rows),
                     tiledSharedBytes(elemBytes(pr.type), rows)});
    return plan;
  }

  plan.kernel = GemmKernel::SmallM;
  plan.mTiles = static_cast<int>(ceilDiv(pr.m, 8));
  const i64 tiles = ceilDiv(pr.n, kSmallMTileN) * pr.batch;
  const int slice = smallMKBlock(elemBytes(pr.type));
  const i64 slices = ceilDiv(pr.k, slice);
  const i64 maxSplit = std::max<i64>(1, slices / (kSmallMThreads / 32));
  const i64 wanted = splitsFor(splitK > 0 ? splitK : smallMMinBlocks(plan.mTiles) * i64{smCount} / tiles, tiles);
  const i64 kPerSplit = ceilDiv(slices, std::clamp<i64>(wanted, 1, maxSplit)) * slice;
  p.kPerSplit = static_cast<int>(kPerSplit);
  p.splitK = static_cast<int>(ceilDiv(pr.k, kPerSplit));
  // Stage as much of the split's K as fits the block's share of the multiprocessor's shared memory
  // (one chunk for the decode projections), in multiples of 64 (bank-conflict-free rows).
  const i64 rowBytes = i64{8} * plan.mTiles * elemBytes(pr.type);
  const i64 fit =
      (kSmallMSharedPerSm / smallMMinBlocks(plan.mTiles) / rowBytes - smallMAPadding(plan.bAccess, elemBytes(pr.type))) /
      64 * 64;
  p.kChunk = static_cast<int>(std::max<i64>(64, std::min(roundUp(kPerSplit, 64), fit)));
  plan.launch = launch1d(ceilDiv(pr.n, kSmallMTileN), p.splitK, pr.batch, kSmallMThreads,
                         smallMSharedBytes(plan.mTiles, p.kChunk, plan.bAccess, pr.type));
  if (p.splitK > 1)
    plan.workspaceBytes = splitKWorkspaceBytes(tiles * p.splitK * (8 * plan.mTiles) * kSmallMTileN);
  return plan;
}

// The kernel `plan` runs, for a launch's description: "gemm_small_m", "gemm_tiled 64x64" (its tiles),
// "gemm_wgmma_f32" or "gemm_wgmma_f32 tf32".
inline std::string gemmKernelName(const GemmPlan& plan) {
  switch (plan.kernel) {
  case GemmKernel::SmallM: return "gemm_small_m";
  case GemmKernel::Tiled: return "gemm_tiled " + std::to_string(plan.tileRows) + "x" + std::to_string(plan.tileRows);
  case GemmKernel::WgmmaF32: return plan.tf32 ? "gemm_wgmma_f32 tf32" : "gemm_wgmma_f32";
  }
  return "gemm";
}

// "T, MT, B" (small M), "B, TF32" (wgmma) or "T, A, B, ROWS" (tiled), then the epilogue type.
inline std::string gemmTemplateArgs(const GemmPlan& plan, std::string_view epilogue) {
  if (plan.kernel == GemmKernel::WgmmaF32)
    return std::string(accessName(plan.bAccess)) + (plan.tf32 ? ", true, " : ", false, ") + std::string(epilogue);
  std::string s(cudaTypeName(plan.type));
  s += ", ";
  s += plan.kernel == GemmKernel::SmallM ? std::to_string(plan.mTiles) : std::string(accessName(plan.aAccess));
  s += ", ";
  s += accessName(plan.bAccess);
  s += ", ";
  if (plan.kernel == GemmKernel::Tiled) {
    s += std::to_string(plan.tileRows);
    s += ", ";
  }
  s += epilogue;
  return s;
}

} // namespace tcx
