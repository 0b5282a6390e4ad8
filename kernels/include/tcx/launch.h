#pragma once
// Host side of the kernel library, plain C++20 for core's code generator: for each kernel, the
// template arguments to instantiate, the launch configuration and the workspace it needs, computed
// from the problem sizes and the device's multiprocessor count.
//
// Codegen instantiates a kernel body (a __device__ function template) inside a tiny extern "C"
// __global__ wrapper with the block size as launch bounds, and launches the wrapper by name with
// cudaLaunchKernel, args = {&params, &functor}. The functor is passed by value (an empty struct
// still takes its 1-byte argument) or constructed inside the wrapper. The wrappers:
//
//   extern "C" __global__ void __launch_bounds__(tcx::kSmallMThreads, tcx::smallMMinBlocks(MT))
//   NAME(tcx::GemmParams p, EPILOGUE e) { tcx::gemm_small_m_body<T, MT, B_ACCESS>(p, e); }
//
//   extern "C" __global__ void __launch_bounds__(tcx::tiledThreads(ROWS), tcx::tiledMinBlocks(ROWS))
//   NAME(tcx::GemmParams p, EPILOGUE e) { tcx::gemm_tiled_body<T, A_ACCESS, B_ACCESS, ROWS>(p, e); }
//
//   extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, MIN_BLOCKS)
//   NAME(tcx::ConvParams p, EPILOGUE e) { tcx::conv_implicit_gemm_body<T, PATH>(p, e); }
//
//   extern "C" __global__ void __launch_bounds__(tcx::kDepthwiseThreads)
//   NAME(tcx::ConvParams p, EPILOGUE e) { tcx::conv_depthwise_body<T>(p, e); }   (or _tiled_body)
//
//   extern "C" __global__ void __launch_bounds__(tcx::kAttentionThreads)
//   NAME(tcx::AttentionParams p, SCORE_OP s) { tcx::decode_attention_partial_body<T, D, RT>(p, s); }
//
//   extern "C" __global__ void __launch_bounds__(tcx::kCombineThreads)
//   NAME(tcx::AttentionParams p, OUT_STORE o) { tcx::decode_attention_combine_body<T, D>(p, o); }
//
//   extern "C" __global__ void __launch_bounds__(tcx::kF32AttentionThreads, tcx::f32AttentionMinBlocks(D))
//   NAME(tcx::AttentionParams p, SCORE_OP s, OUT_STORE o) { tcx::attention_f32_body<D, KT>(p, s, o); }
//
// gemmTemplateArgs and attentionTemplateArgs spell the template arguments. Before launching a
// LaunchConfig with sharedBytes > 0, set cudaFuncAttributeMaxDynamicSharedMemorySize to
// sharedBytes (cudaFuncSetAttribute): it is required once sharedBytes plus the kernel's static
// shared memory passes 48 KiB, and harmless below. Workspaces are zeroed once when they are
// allocated (gemm_small_m's counters rely on it).

#include "tcx/abi.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace tcx {

struct LaunchConfig {
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes; // dynamic shared memory
};

// Element types the GEMM and attention kernels take.
enum class ElemType { F32, F16, BF16 };

constexpr int elemBytes(ElemType t) { return t == ElemType::F32 ? 4 : 2; }

constexpr std::string_view cudaTypeName(ElemType t) {
  return t == ElemType::F32 ? "float" : t == ElemType::F16 ? "__half" : "__nv_bfloat16";
}

constexpr std::string_view accessName(Access a) {
  return a == Access::ColContiguous   ? "tcx::Access::ColContiguous"
         : a == Access::RowContiguous ? "tcx::Access::RowContiguous"
                                      : "tcx::Access::Strided";
}

namespace detail {

constexpr i64 ceilDiv(i64 a, i64 b) { return (a + b - 1) / b; }
constexpr i64 roundUp(i64 a, i64 b) { return ceilDiv(a, b) * b; }

// The splits a planner wants, or none where the tiles outnumber the workspace's counters (abi.h).
constexpr i64 splitsFor(i64 wanted, i64 tiles) { return tiles > kSplitKMaxTiles ? 1 : wanted; }

// Splits of K for `tiles` output tiles of at least `resident`, the blocks resident at once: among 1
// to 4, the one whose waves cost least as a share of the unsplit work, each split taken to cost a
// tenth more for writing and adding its partial tile; 1 unless that saves a tenth. ViT's 6304 x 768
// MLP output at 32 images is 300 tiles for 264 resident blocks: two waves, the second 14% full, unsplit;
// three splits make four nearly full waves of a third of the work.
constexpr i64 waveSplits(i64 tiles, i64 resident) {
  const auto cost = [&](i64 s) { return static_cast<double>(ceilDiv(tiles * s, resident)) / s * (1 + 0.1 * (s - 1)); };
  i64 best = 1;
  for (i64 s = 2; s <= 4; ++s)
    if (cost(s) < cost(best) && cost(s) < 0.9 * cost(1)) best = s;
  return best;
}

// K steps per split for `wanted` splits of `steps`, each split at least two steps: a split of one
// spends about as long filling its pipeline and writing its partial tile as on its products.
constexpr i64 stepsPerSplit(i64 steps, i64 wanted) {
  return ceilDiv(steps, std::clamp<i64>(wanted, 1, std::max<i64>(1, steps / 2)));
}

// The split-K workspace (abi.h) for `partialFloats` floats of partial tiles.
constexpr std::size_t splitKWorkspaceBytes(i64 partialFloats) {
  return static_cast<std::size_t>(kSplitKCounterBytes + partialFloats * 4);
}

constexpr LaunchConfig launch1d(i64 gx, i64 gy, i64 gz, int threads, i64 sharedBytes) {
  return {{static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)},
          {static_cast<unsigned>(threads), 1, 1},
          static_cast<unsigned>(sharedBytes)};
}

} // namespace detail

// ---------------------------------------------------------------------------------------------
// GEMM

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

// ---------------------------------------------------------------------------------------------
// Convolution

// conv_implicit_gemm_body's template argument for `path`.
constexpr std::string_view convPathCode(ConvPath path) {
  switch (path) {
  case ConvPath::Gathered: return "tcx::ConvPath::Gathered";
  case ConvPath::Staged: return "tcx::ConvPath::Staged";
  case ConvPath::Window: return "tcx::ConvPath::Window";
  }
  return "tcx::ConvPath::Gathered";
}

struct ConvPlan {
  ConvPath path = ConvPath::Gathered; // conv_implicit_gemm_body's Path
  int minBlocks = kConvMinBlocks;     // the wrapper's __launch_bounds__ minimum of blocks a multiprocessor
  LaunchConfig launch = {};
  ConvParams params = {}; // the problem with vectorX, vectorW and the split set; workspace unset
  std::size_t workspaceBytes = 0;
};

// Whether the staged path, whose tiles hold pixels of one image, would run at least twice the
// tiles of the gathered path, whose tiles run across images: small images at a large batch
// (ResNet's last stage at 32 images: 7 x 7 = 49 pixels in each tile of 128, 32 tiles where 13
// hold every pixel).
inline bool smallImages(const ConvParams& p) {
  return 2 * detail::ceilDiv(i64{p.batch} * p.oh * p.ow, kConvTileM) <= convHaloTiles(p, convHaloGeometry(p));
}

// Blocks a multiprocessor on the window path: three where one channel tile covers cout, two where a
// second tile, its warps past cout idle, shares the multiprocessors. On an H200 at 32 images the
// stems of ResNet-18 took 123.4 us at three against 132.2 at two, EfficientNet-B0's 42.0 against
// 46.5; SqueezeNet's, 96 channels, 265.1 at three against 198.6 at two.
inline int windowMinBlocks(const ConvParams& p) { return p.cout <= kConvTileN ? 3 : kConvMinBlocks; }

// Whether the window path's tiles fill every block slot (windowMinBlocks a multiprocessor): it
// never splits K, and where the tiles are fewer (a stem at one image: 98 tiles of ResNet's 112 x
// 112) the gathered path's splits use the multiprocessors it would leave idle.
inline bool windowFillsGpu(const ConvParams& p, i64 tilesN, int smCount) {
  const i64 pixelTiles = convHaloTiles(p, convHaloGeometry(p, ConvPath::Window));
  return pixelTiles * tilesN * std::max(p.groups, 1) >= i64{windowMinBlocks(p)} * smCount;
}

// The window path for float with fewer than 8 input channels (the staged path's steps take 8), a
// K whose weights fit beside two windows in the block's share of shared memory, and tiles that
// fill the GPU (windowFillsGpu); else the staged path for float where its stages fit two blocks a
// multiprocessor; both where the images are not small (smallImages). Else the gather path. One
// block per output tile of kConvTileM pixels x kConvTileN channels, the channel tiles of one pixel
// tile adjacent so that they read the same inputs while those sit in L2; K split as gemm_tiled
// splits it where the tiles leave multiprocessors idle (splitK == 0 picks it). The window path
// instead runs windowMinBlocks blocks a multiprocessor (or fewer, where the pixel tiles are
// fewer), each over every (gridDim.x / tilesN)-th pixel tile, and never splits K.
// xAligned16 / wAligned16: the views' base pointers, offsets included, are 16-byte aligned.
inline ConvPlan planConv(const ConvParams& problem, ElemType type, bool xAligned16, bool wAligned16, int smCount,
                         int splitK = 0) {
  using namespace detail;
  ConvPlan plan;
  ConvParams& p = plan.params;
  p = problem;
  const i64* xs = p.xStride;
  const i64* ws = p.wStride;
  p.vectorX = xAligned16 && xs[3] == 1 && xs[2] % 4 == 0 && xs[1] % 4 == 0 && xs[0] % 4 == 0;
  // Dense along K = (c, r, s); the stride of a dimension of size 1 never matters.
  const bool wDense = (p.kw == 1 || ws[3] == 1) && (p.kh == 1 || ws[2] == p.kw) && (p.cin == 1 || ws[1] == i64{p.kh} * p.kw);
  p.vectorW = wAligned16 && wDense && ws[0] % 4 == 0;
  const bool haloTiles = type == ElemType::F32 && !smallImages(p);
  const i64 tilesN = ceilDiv(p.cout, kConvTileN);
  const long long windowShare = windowMinBlocks(p) > kConvMinBlocks ? kConvWindowMaxBytes : kConvHaloMaxBytes;
  if (haloTiles && p.cin < 8 && p.kw <= 8 && i64{p.cin} * p.kh * convWindowRowTaps(p) <= kConvWindowMaxK &&
      convWindowSharedBytes(p) <= windowShare && windowFillsGpu(p, tilesN, smCount))
    plan.path = ConvPath::Window;
  else if (haloTiles && convHaloSharedBytes(p) <= kConvHaloMaxBytes)
    plan.path = ConvPath::Staged;
  p.groups = std::max(p.groups, 1);
  if (plan.path == ConvPath::Window) {
    const i64 pixelTiles = convHaloTiles(p, convHaloGeometry(p, ConvPath::Window));
    plan.minBlocks = windowMinBlocks(p);
    const i64 columns = std::clamp<i64>(i64{plan.minBlocks} * smCount / (tilesN * p.groups), 1, pixelTiles);
    p.splitK = 1, p.stepsPerSplit = 1;
    plan.launch = launch1d(columns * tilesN, 1, p.groups, kConvThreads, convWindowSharedBytes(p));
    return plan;
  }
  i64 tiles, steps, sharedBytes;
  if (plan.path == ConvPath::Staged) {
    const ConvHaloGeometry geo = convHaloGeometry(p);
    tiles = i64{convHaloTiles(p, geo)} * tilesN;
    steps = ceilDiv(p.cin, geo.chunkC);
    sharedBytes = convHaloSharedBytes(p);
  } else {
    tiles = ceilDiv(i64{p.batch} * p.oh * p.ow, kConvTileM) * tilesN;
    steps = ceilDiv(i64{p.cin} * p.kh * p.kw, convTileK(elemBytes(type)));
    sharedBytes = kConvSharedBytes;
  }
  // Groups fill the machine as splits would (and the split-K handshake counts tiles of one group).
  if (p.groups > 1) splitK = 1;
  const i64 splitSteps =
      stepsPerSplit(steps, splitsFor(splitK > 0 ? splitK : i64{kConvMinBlocks} * smCount / tiles, tiles));
  p.stepsPerSplit = static_cast<int>(splitSteps);
  p.splitK = static_cast<int>(ceilDiv(steps, splitSteps));
  plan.launch = launch1d(tiles, p.splitK, p.groups, kConvThreads, sharedBytes);
  if (p.splitK > 1)
    plan.workspaceBytes = splitKWorkspaceBytes(tiles * p.splitK * kConvTileM * kConvTileN);
  return plan;
}

struct DepthwisePlan {
  bool tiled = false;      // conv_depthwise_tiled_body, else conv_depthwise_body
  ConvParams params = {};  // the problem's, with tileRows and tileChannels set where tiled
  LaunchConfig launch = {};
};

// conv_depthwise_tiled_body's shared memory for a tile of `rows` output rows of `channels`
// channels: the filters, then each channel's input rows, as float.
inline int depthwiseSharedBytes(const ConvParams& p, int rows, int channels) {
  const i64 tileH = i64{rows - 1} * p.strideH + i64{p.kh - 1} * p.dilationH + 1;
  const i64 tileW = i64{p.ow - 1} * p.strideW + i64{p.kw - 1} * p.dilationW + 1;
  return static_cast<int>(4 * channels * (i64{p.kh} * p.kw + ((tileH * tileW) | 1)));
}

// conv_depthwise: tiled where x's channel stride is the smaller (channels-last; a block takes 8
// channels, a 32-byte sector of floats, and as many output rows as fit kDepthwiseTileBytes, at
// least one, fewer where the tiles would not give every multiprocessor two blocks); else a
// thread an output. The tiled body ran NCHW 7x7s slower than a thread an output on an H100
// (ConvNeXt-T at 32 images: 154 against 138 us at 56 x 56, 52 against 36 us at 14 x 14).
inline DepthwisePlan planDepthwise(const ConvParams& problem, int smCount) {
  using namespace detail;
  DepthwisePlan plan;
  ConvParams& p = plan.params = problem;
  const i64 channelStride = p.xStride[1] < 0 ? -p.xStride[1] : p.xStride[1];
  const i64 columnStride = p.xStride[3] < 0 ? -p.xStride[3] : p.xStride[3];
  plan.tiled = channelStride < columnStride && p.cin == 1 && p.cout == 1;
  if (!plan.tiled) {
    const i64 outputs = i64{p.batch} * p.groups * p.cout * p.oh * p.ow;
    plan.launch = launch1d(ceilDiv(outputs, kDepthwiseThreads), 1, 1, kDepthwiseThreads, 0);
    return plan;
  }
  p.tileChannels = std::clamp(p.groups, 1, 8);
  int rows = std::max(p.oh, 1);
  while (rows > 1 && depthwiseSharedBytes(p, rows, p.tileChannels) > kDepthwiseTileBytes) --rows;
  const i64 otherTiles = ceilDiv(p.groups, p.tileChannels) * i64{p.batch};
  while (rows > 1 && ceilDiv(p.oh, rows) * otherTiles < 2 * i64{smCount}) rows = static_cast<int>(ceilDiv(rows, 2));
  p.tileRows = rows;
  // An empty problem still launches a block, which finds nothing to do.
  plan.launch = launch1d(std::max<i64>(ceilDiv(p.oh, rows), 1), std::max<i64>(ceilDiv(p.groups, p.tileChannels), 1),
                         std::max(p.batch, 1), kDepthwiseThreads, depthwiseSharedBytes(p, rows, p.tileChannels));
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Attention

struct AttentionProblem {
  ElemType type = ElemType::BF16;
  int batch = 1, heads = 1, kvHeads = 1, sq = 1, skv = 1, headDim = 128;
};

struct AttentionPlan {
  int rowTiles = 1; // RT: 16-row query tiles per block
  LaunchConfig partial = {};
  LaunchConfig combine = {};
  AttentionParams params = {}; // all but q, k, v, their strides and workspace
  std::size_t workspaceBytes = 0;
};

// Requires heads % kvHeads == 0, headDim in {64, 128, 256}, a 16-bit type. Phase 1 runs
// kAttentionBlocksPerSm blocks per multiprocessor (their rings take most of the shared memory),
// each on a contiguous range of items. chunkLen == 0 picks it: the fewest chunks that still give
// every multiprocessor an item. Phase 1 is bound by reading K and V, and a multiprocessor that
// streams all the while needs no more; fewer chunks mean fewer partials to write and merge.
inline AttentionPlan planAttention(const AttentionProblem& pr, int smCount, int chunkLen = 0) {
  using namespace detail;
  AttentionPlan plan;
  const int rows = pr.heads / pr.kvHeads * pr.sq;
  // The output accumulators of RT row tiles take RT * headDim / 2 registers per thread.
  plan.rowTiles = static_cast<int>(std::clamp<i64>(ceilDiv(rows, 16), 1, 256 / pr.headDim));
  AttentionParams& p = plan.params;
  p.batch = pr.batch, p.heads = pr.heads, p.kvHeads = pr.kvHeads, p.sq = pr.sq, p.skv = pr.skv;
  p.rowGroups = static_cast<int>(ceilDiv(rows, 16 * plan.rowTiles));
  const i64 pairs = i64{pr.batch} * ceilDiv(i64{pr.kvHeads} * p.rowGroups, kAttentionWarps);
  const i64 residentBlocks = i64{smCount} * kAttentionBlocksPerSm;
  const i64 chunks = std::clamp<i64>(residentBlocks / pairs, 1, ceilDiv(pr.skv, kAttentionTile));
  p.chunkLen = static_cast<int>(chunkLen > 0 ? std::min(chunkLen, pr.skv) : ceilDiv(pr.skv, chunks));
  p.numChunks = static_cast<int>(ceilDiv(pr.skv, p.chunkLen));
  plan.partial = launch1d(std::min<i64>(pairs * p.numChunks, residentBlocks), 1, 1, kAttentionThreads,
                          attentionSharedBytes(pr.headDim, plan.rowTiles));
  const i64 outRows = i64{pr.batch} * pr.heads * pr.sq;
  plan.combine = launch1d(ceilDiv(outRows, kCombineThreads / 32), 1, 1, kCombineThreads, 0);
  plan.workspaceBytes =
      static_cast<std::size_t>(attentionWorkspaceBytes(outRows * p.numChunks, pr.headDim, elemBytes(pr.type)));
  return plan;
}

// The fp32 attention: a block per (b, h) and kF32AttentionRows query rows. Requires heads %
// kvHeads == 0 and a head dim of 8 to 128, a multiple of 8.
inline LaunchConfig planF32Attention(const AttentionProblem& pr) {
  return detail::launch1d(detail::ceilDiv(pr.sq, kF32AttentionRows) * pr.heads * pr.batch, 1, 1,
                          kF32AttentionThreads, f32AttentionSharedBytes(pr.headDim));
}

// "T, D, RT, SCORE_OP" for decode_attention_partial_body.
inline std::string attentionTemplateArgs(const AttentionProblem& pr, const AttentionPlan& plan,
                                         std::string_view scoreOp) {
  return std::string(cudaTypeName(pr.type)) + ", " + std::to_string(pr.headDim) + ", " +
         std::to_string(plan.rowTiles) + ", " + std::string(scoreOp);
}

// "T, D, OUT_STORE" for decode_attention_combine_body.
inline std::string combineTemplateArgs(const AttentionProblem& pr, std::string_view outStore) {
  return std::string(cudaTypeName(pr.type)) + ", " + std::to_string(pr.headDim) + ", " + std::string(outStore);
}

} // namespace tcx
