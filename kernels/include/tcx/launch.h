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

#include "tcx/launch_base.h"
#include "tcx/launch_gemm.h"

namespace tcx {

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
