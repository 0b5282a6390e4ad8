#ifndef TCX_ABI_H
#define TCX_ABI_H
// The kernel ABI shared by the device library (the .cuh headers, compiled by NVRTC or nvcc) and
// the host planner (launch.h, compiled by g++): the parameter structs every kernel takes by value
// and the block sizes it was written for. Plain C++ with no includes, so that NVRTC, nvcc and g++
// all accept it; the structs hold only pointers, long long and int, so their layout is the same
// on both sides and the host can pass `&params` in the void*[] of cudaLaunchKernel.

// Functions both sides evaluate (NVRTC and nvcc define __CUDACC__).
#ifdef __CUDACC__
#define TCX_HOST_DEVICE __host__ __device__
#else
#define TCX_HOST_DEVICE
#endif

namespace tcx {

using i64 = long long;

// How a 2-D operand view (row, col) is laid out in memory. Picks the load path of a GEMM; the
// planner (launch.h) derives it from the strides and the base pointer's alignment.
enum class Access : int {
  // Any strides: element-wise loads. Correct for every view, slow.
  Strided = 0,
  // strideCol == 1; base 16-byte aligned; strideRow and strideBatch multiples of 16 bytes.
  ColContiguous = 1,
  // strideRow == 1; base 16-byte aligned; strideCol and strideBatch multiples of 16 bytes.
  RowContiguous = 2,
};

// A number a launch binds to a slot of a generated kernel's argument as it binds buffers (a
// launch value: codegen/GeneratedLaunch.h's BufferBinding::kValue), so that kernels whose code
// differs only in that number share their code. The slot holds the number as its address.
TCX_HOST_DEVICE inline i64 slotValue(const void* slot) { return reinterpret_cast<i64>(slot); }

// One operand of a batched GEMM: element (batch, row, col) lives at
// data + batch * strideBatch + row * strideRow + col * strideCol (strides in elements).
struct Operand {
  const void* data;
  i64 strideBatch;
  i64 strideRow;
  i64 strideCol;
};

// C[batch][m][n] = sum_k A[batch][m][k] * B[batch][k][n]; C goes through the epilogue functor.
struct GemmParams {
  Operand a; // (batch, m, k)
  Operand b; // (batch, k, n)
  int batch;
  int m;
  int n;
  int k;
  // Blocks that share one output tile along K and the K range of each (a multiple of the kernel's
  // K step); gemm_small_m only: how much of that range is staged in shared memory at a time.
  int splitK;
  int kPerSplit;
  int kChunk;
  // With splitK > 1: the split-K workspace (below).
  void* workspace;
};

// The GEMM kernels' split-K workspace: kSplitKCounterBytes of 4-byte arrival counters, one per
// output tile, then the partial tiles. Zero it once when it is allocated: every launch leaves its
// counters at zero again. One layout for every GEMM kernel, so that all the GEMMs of a plan, which
// run one after another, share one workspace; planners split K only for at most kSplitKMaxTiles
// output tiles.
inline constexpr int kSplitKMaxTiles = 4096;
inline constexpr int kSplitKCounterBytes = 4 * kSplitKMaxTiles;

// Attention over (b, head, position, d). K and V have d contiguous (stride 1).
struct AttentionParams {
  const void* q;
  i64 qStride[4]; // (b, head, i, d), any strides
  const void* k;
  i64 kStride[4]; // (b, kvHead, j, d): d contiguous for the split-K kernel, j or d for the fp32 one
  const void* v;
  i64 vStride[3]; // (b, kvHead, j)
  int batch;
  int heads;
  int kvHeads;
  int sq;        // query rows per head
  int skv;       // key/value positions
  int chunkLen;  // positions per phase-1 work item (any length; the last chunk may be shorter)
  int numChunks; // ceil(skv / chunkLen)
  int rowGroups; // units per KV head: groups of up to 16 * RT of its heads/kvHeads * sq query rows
  int emptyRowsZero; // a row whose scores are all -inf: 0 gives NaN (softmax), 1 zeros (safe softmax)
  void* workspace; // attentionWorkspaceBytes (below)
};

// The attention's workspace for `partials` (row, chunk) pairs: (max, sum) of each as two floats,
// then, 16-byte aligned, o[D] of each in the kernel's type, divided by its sum. So divided, o is
// a convex combination of V's rows and fits V's type; it takes half the bytes of a float o.
TCX_HOST_DEVICE inline i64 attentionPartialOOffset(i64 partials) { return (partials * 8 + 15) / 16 * 16; }
TCX_HOST_DEVICE inline i64 attentionWorkspaceBytes(i64 partials, int headDim, int elemBytes) {
  return attentionPartialOOffset(partials) + partials * headDim * elemBytes;
}

// A 2-D convolution (one group) in NCHW, read as an implicit GEMM: rows are the output pixels
// (image, oh, ow), columns the output channels, K runs over (input channel, kernel row, kernel
// col). x is read at (image, c, oh * strideH - padH + r * dilationH, ow * strideW - padW +
// s * dilationW), zero outside the image; w at (cout, c, r, s). Strides in elements, any values.
struct ConvParams {
  const void* x;
  i64 xStride[4]; // (image, c, h, w)
  const void* w;
  i64 wStride[4]; // (cout, c, r, s)
  int batch;
  int cin;
  int h;
  int width;
  int cout;
  int oh;
  int ow;
  int kh;
  int kw;
  int strideH;
  int strideW;
  int padH;
  int padW;
  int dilationH;
  int dilationW;
  // Nonzero where the staged and window paths may copy x (w) 16 bytes at a time: w dense along K
  // (c, r, s); x with unit column stride; either's other strides multiples of 4 and its base
  // 16-byte aligned (planConv sets them).
  int vectorX;
  int vectorW;
  // Split-K (planConv sets them): blockIdx.y is the split, which runs K steps [split *
  // stepsPerSplit, (split + 1) * stepsPerSplit), a step being a channel chunk on the staged path
  // and kConvTileK elements on the gathered one (the window path has one step and never splits);
  // with splitK > 1 the blocks combine through workspace (split_k.cuh).
  int splitK;
  int stepsPerSplit;
  void* workspace;
  // A grouped convolution (ResNeXt's, RegNet's) runs group blockIdx.z of `groups`: cin and cout
  // above are per group, and the group reads x's channels and w's output channels, and writes the
  // output channels, from group * cin (cout) on. planConv runs it without split-K.
  int groups;
  // conv_depthwise_tiled_body (planDepthwise sets them): the output rows and channels of a tile.
  int tileRows;
  int tileChannels;
};

// Block sizes and shared memory of each kernel. Codegen's wrappers take the thread counts (and
// minimum blocks) as __launch_bounds__; launch.h computes the rest of each launch from them.

// gemm_small_m: 64-column tiles of B, 8 warps. A warp's step of K (a slice) is 64 bytes of each
// column: 32 rows of 16-bit elements, 16 of floats.
inline constexpr int kSmallMThreads = 256;
inline constexpr int kSmallMTileN = 64;
TCX_HOST_DEVICE constexpr int smallMKBlock(int elemBytes) { return 64 / elemBytes; }
// Up to 64 rows of A (MT = 8); float up to 16. Float runs in 3xTF32, three tensor-core products a
// product, and past 16 rows the accumulators and their step sums spill at one block a
// multiprocessor (255 registers): at 49 rows (ConvNeXt's and Swin's last stage at batch 1) it took
// 1.3-1.4x cuBLAS SGEMM's time, at 64 rows 1.8x (H200, docs/benchmarks.md), where 16 rows take
// 0.35-0.96x.
inline constexpr int kSmallMMaxRows = 64;
inline constexpr int kSmallMMaxRowsF32 = 16;
// Minimum resident blocks per multiprocessor: two blocks overlap one's A staging and reduction
// with the other's stream of B; with more than 16 rows the accumulators need the registers of a
// single block.
TCX_HOST_DEVICE constexpr int smallMMinBlocks(int mTiles) { return mTiles <= 2 ? 2 : 1; }
// Shared memory the resident blocks of a multiprocessor divide between them for staged A.
inline constexpr int kSmallMSharedPerSm = 200 * 1024;
// A is staged as rows of kChunk elements and this padding: it makes the warp's fragment reads hit
// distinct shared-memory banks (16 bytes per lane when B is k-contiguous, 4 bytes otherwise).
TCX_HOST_DEVICE constexpr int smallMAPadding(Access b, int elemBytes) {
  return (b == Access::RowContiguous ? 64 : 16) / elemBytes;
}

// gemm_tiled: square output tiles of kTiledLarge or kTiledSmall rows, 128 bytes of K a step (64
// 16-bit or 32 float elements), a 3-stage cp.async pipeline. The block's warps form 2 rows of
// tileRows / 2 and tileRows / 32 columns of 32: 8 warps of 64 x 32 for the large tiles, 4 of 32 x 32
// for the small. The small tiles serve GEMMs whose large tiles are too few to fill the
// multiprocessors without splitting K many ways (Swin-T's and ConvNeXt-T's 49 to 196 rows at batch
// 1): a split's partial tile is a quarter the size, and the last block that sums them all reads a
// quarter as much; and GEMMs of at most 64 rows, where half of a large tile's products are rows past
// M (tiledRowsFor in launch_gemm.h has the rule). At most 128 registers a thread, so that two large
// or four small blocks share a multiprocessor. float B with n contiguous is staged as rows of
// tileRows + kTiledBPadF32 floats (gemm_tiled.cuh says why).
inline constexpr int kTiledLarge = 128;
inline constexpr int kTiledSmall = 64;
inline constexpr int kTiledRowBytes = 128;
inline constexpr int kTiledStages = 3;
inline constexpr int kTiledBPadF32 = 8;
TCX_HOST_DEVICE constexpr int tiledThreads(int tileRows) { return 2 * tileRows; }
TCX_HOST_DEVICE constexpr int tiledMinBlocks(int tileRows) { return tileRows == kTiledLarge ? 2 : 4; }
TCX_HOST_DEVICE constexpr int tiledKElems(int elemBytes) { return kTiledRowBytes / elemBytes; }
TCX_HOST_DEVICE constexpr int tiledStageBytes(int elemBytes, int tileRows) {
  return tileRows * kTiledRowBytes +
         (elemBytes == 4 ? tiledKElems(4) * (tileRows + kTiledBPadF32) * 4 : tileRows * kTiledRowBytes);
}
TCX_HOST_DEVICE constexpr int tiledSharedBytes(int elemBytes, int tileRows) {
  return kTiledStages * tiledStageBytes(elemBytes, tileRows);
}

// gemm_wgmma_f32 (Hopper, float, A with k and B with n contiguous): 128 x 128 output tiles, two
// warpgroups of 64 rows, 32 floats of K a stage. A stage holds A (cp.async) and B rounded to tf32
// and, in 3xTF32, B's remainder (split in registers on the way in), each 128 rows of 128 bytes in
// wgmma's 128-byte swizzle; the tiles want 1024-byte alignment, which the extra 1024 bytes give
// room for. 3xTF32 runs one block a multiprocessor: its accumulators and each stage's three
// products take the registers. Tf32 (one product, no remainder) fits two, so that one block's
// prologue and epilogue overlap the other's stages: a pointwise convolution's GEMM (ResNeXt-50's
// 100352 x 128 x 256 at 32 images) is 8 stages a tile.
inline constexpr int kWgmmaThreads = 256;
inline constexpr int kWgmmaM = 128;
inline constexpr int kWgmmaN = 128;
inline constexpr int kWgmmaKElems = 32;
inline constexpr int kWgmmaStages = 3;
inline constexpr int kWgmmaTileBytes = 128 * 128;
TCX_HOST_DEVICE constexpr int wgmmaStageBytes(bool tf32) { return (tf32 ? 2 : 3) * kWgmmaTileBytes; }
TCX_HOST_DEVICE constexpr int wgmmaSharedBytes(bool tf32) { return kWgmmaStages * wgmmaStageBytes(tf32) + 1024; }
TCX_HOST_DEVICE constexpr int wgmmaMinBlocks(bool tf32) { return tf32 ? 2 : 1; }
// Below this K (8 stages) the lone block a multiprocessor waits out its prologue and epilogue with
// nothing to overlap them, and gemm_tiled's two blocks do better: on an H200 ConvNeXt-T's
// 100352 x 384 x 96 took 378 us on wgmma against 310 on gemm_tiled, its 25088 x 768 x 192 244
// against 238, where ViT-B/16's 6304 x 3072 x 768 took 580 against 735.
inline constexpr int kWgmmaMinK = 256;

// conv_implicit_gemm: 128 output pixels x 64 output channels a block, 128 bytes of K a step (32
// float or 64 16-bit elements), two stages; 8 warps of 32 x 32. Shared rows are padded by 16
// bytes so that ldmatrix's 8 rows fall on distinct banks.
inline constexpr int kDepthwiseThreads = 256; // conv_depthwise
// conv_depthwise_tiled_body's shared tile at most: several blocks a multiprocessor, each tile's
// rows many enough that the rows its taps overlap (kh - 1 of them) are a small part of its load.
inline constexpr int kDepthwiseTileBytes = 32 * 1024;
inline constexpr int kConvThreads = 256;
inline constexpr int kConvMinBlocks = 2;
inline constexpr int kConvTileM = 128;
inline constexpr int kConvTileN = 64;
inline constexpr int kConvRowBytes = 128 + 16;
inline constexpr int kConvStageBytes = (kConvTileM + kConvTileN) * kConvRowBytes;
inline constexpr int kConvSharedBytes = 2 * kConvStageBytes;
TCX_HOST_DEVICE constexpr int convTileK(int elemBytes) { return 128 / elemBytes; } // K elements a gathered step

// conv_implicit_gemm's paths (launch.h's planConv picks one):
// - Gathered: any type; tiles of kConvTileM pixels running across images, both operands gathered.
// - Staged (float): a block computes tileH x tileW output pixels of one image (tileH * tileW ==
//   kConvTileM) for kConvTileN output channels. A stage holds, for chunkC input channels, the
//   input window those pixels read (haloRows rows of `pitch` floats, the window's first column at
//   `lead` so that 16-byte copies stay aligned) and the weights of those channels in their (c, r,
//   s) order, weightPitch floats per output channel; kConvStages stages in flight. The paddings
//   make a warp's fragment loads hit 32 distinct banks: channelFloats is 8 modulo 16 (lanes t =
//   0..3 read channels t), weightPitch 4 modulo 8 (lanes g read channels g).
// - Window (float, fewer than 8 input channels: the stems over RGB images): tiles as the staged
//   path's, but a stage is every channel's window and the block keeps all of its channels'
//   weights, K whole; the block walks pixel tiles with the next tile's window in flight. K runs
//   over (c, r, s) with each kernel row padded to convWindowRowTaps taps (zero weights), so that
//   an MMA step of 8 is one padded row (or two) and a lane's operands sit at offsets the step
//   fixes: a window reads kw rounded up to 4 or 8 columns per row.
enum class ConvPath : int { Gathered = 0, Staged = 1, Window = 2 };
inline constexpr int kConvStages = 3;
inline constexpr int kConvHaloMaxBytes = 108 * 1024; // two blocks a multiprocessor
// The window path's padded K (cin * kh * convWindowRowTaps) at most: 3 channels of 7 x 8 taps is
// 168; weights of 256 take 66 KiB of the block's shared memory.
inline constexpr int kConvWindowMaxK = 256;
TCX_HOST_DEVICE constexpr int convWindowRowTaps(const ConvParams& p) { return p.kw <= 4 ? 4 : 8; }
// The window path runs three blocks a multiprocessor where one channel tile covers cout (its MMA
// loop holds no index registers: 80 of them), in at most kConvWindowMaxBytes of shared memory each.
inline constexpr int kConvWindowMaxBytes = 72 * 1024;
struct ConvHaloGeometry {
  int tileH;
  int tileW;
  int chunkC;
  int haloRows;
  int lead;
  int pitch;
  int channelFloats;
  int weightPitch;
  int stageFloats;
};
TCX_HOST_DEVICE constexpr int convRoundUp(int a, int b) { return (a + b - 1) / b * b; }
TCX_HOST_DEVICE constexpr ConvHaloGeometry convHaloGeometry(const ConvParams& p, ConvPath path = ConvPath::Staged) {
  ConvHaloGeometry g = {};
  // The tile width (8 to 128) that covers the output with the fewest pixels, the widest on ties
  // (longer contiguous input rows).
  long long best = -1;
  for (int w = kConvTileM; w >= 8; w /= 2) {
    const int h = kConvTileM / w;
    const long long covered = 1LL * convRoundUp(p.oh, h) * convRoundUp(p.ow, w);
    if (best < 0 || covered < best) {
      best = covered;
      g.tileW = w;
      g.tileH = h;
    }
  }
  // Staged: at least 32 of K a stage, 8 channels of a 3x3 kernel, 32 of a 1x1. Window: every
  // channel, each kernel row read as convWindowRowTaps taps.
  const bool window = path == ConvPath::Window;
  const int rowTaps = window ? convWindowRowTaps(p) : p.kw, taps = p.kh * rowTaps;
  g.chunkC = window ? p.cin : convRoundUp((32 + taps - 1) / taps, 8);
  g.haloRows = (g.tileH - 1) * p.strideH + (p.kh - 1) * p.dilationH + 1;
  g.lead = (4 - p.padW % 4) % 4;
  g.pitch = convRoundUp(g.lead + (g.tileW - 1) * p.strideW + (rowTaps - 1) * p.dilationW + 1, 4);
  g.channelFloats = convRoundUp(g.haloRows * g.pitch, 8);
  if (g.channelFloats % 16 == 0)
    g.channelFloats += 8;
  g.weightPitch = convRoundUp(g.chunkC * taps, 8) + 4;
  g.stageFloats = path == ConvPath::Window ? g.chunkC * g.channelFloats
                                           : g.chunkC * g.channelFloats + kConvTileN * g.weightPitch;
  return g;
}
// The tiles of output pixels (tileH x tileW of one image) that cover p's output.
TCX_HOST_DEVICE constexpr int convHaloTiles(const ConvParams& p, const ConvHaloGeometry& g) {
  return p.batch * ((p.oh + g.tileH - 1) / g.tileH) * ((p.ow + g.tileW - 1) / g.tileW);
}
TCX_HOST_DEVICE constexpr long long convHaloSharedBytes(const ConvParams& p) {
  return 4LL * kConvStages * convHaloGeometry(p).stageFloats;
}
// The window path: the weights, then two windows.
TCX_HOST_DEVICE constexpr long long convWindowSharedBytes(const ConvParams& p) {
  const ConvHaloGeometry g = convHaloGeometry(p, ConvPath::Window);
  return 4LL * (kConvTileN * g.weightPitch + 2 * g.stageFloats);
}

// Attention phase 1: kAttentionBlocksPerSm blocks of kAttentionWarps warps on each
// multiprocessor. The warps share a ring of attentionPanels(headDim, rowTiles) panels, each the K
// or the V rows of kAttentionTile positions of every KV head the block's warps attend to, position
// rows padded by 16 bytes; then each warp's Q fragments; then a "filled" and a "freed" mbarrier
// per panel. Dynamic shared memory only.
inline constexpr int kAttentionWarps = 8;
inline constexpr int kAttentionBlocksPerSm = 1;
inline constexpr int kAttentionThreads = 32 * kAttentionWarps;
inline constexpr int kAttentionTile = 16;
// Elements from one position's row of a panel to the next's.
TCX_HOST_DEVICE constexpr int attentionPanelPitch(int headDim) { return kAttentionWarps * headDim + 8; }
TCX_HOST_DEVICE constexpr int attentionBlockBytes(int headDim, int rowTiles, int panels) {
  return panels * kAttentionTile * attentionPanelPitch(headDim) * 2 + kAttentionWarps * rowTiles * headDim / 16 * 32 * 16 +
         panels * 16;
}
// Up to 8 panels (K and V of 4 steps of positions), as many as fit a block's share of the
// multiprocessor's shared memory (at least 2).
TCX_HOST_DEVICE constexpr int attentionPanels(int headDim, int rowTiles) {
  int panels = 8;
  while (panels > 2 && attentionBlockBytes(headDim, rowTiles, panels) * kAttentionBlocksPerSm > 227 * 1024)
    --panels;
  return panels;
}
TCX_HOST_DEVICE constexpr int attentionSharedBytes(int headDim, int rowTiles) {
  return attentionBlockBytes(headDim, rowTiles, attentionPanels(headDim, rowTiles));
}
inline constexpr int kCombineThreads = 128;

// The fp32 attention (attention_f32.cuh): a block of kF32AttentionWarps warps over
// kF32AttentionRows query rows, K and V in tiles of kF32AttentionKeys positions; Q and two stages
// of K and V in dynamic shared memory, rows padded to f32AttentionPitch floats.
inline constexpr int kF32AttentionWarps = 4;
inline constexpr int kF32AttentionThreads = 32 * kF32AttentionWarps;
inline constexpr int kF32AttentionRows = 16 * kF32AttentionWarps;
inline constexpr int kF32AttentionKeys = 32;
// K with positions contiguous (the transpose of Q K^T's operand stored as such) is staged as its
// transpose, headDim rows of kF32AttentionKeys + 8.
TCX_HOST_DEVICE constexpr int f32AttentionPitch(int headDim) { return headDim + 4; }
inline constexpr int kF32AttentionKeyPitch = kF32AttentionKeys + 8;
TCX_HOST_DEVICE constexpr int f32AttentionKFloats(int headDim) {
  return kF32AttentionKeys * f32AttentionPitch(headDim) > headDim * kF32AttentionKeyPitch
             ? kF32AttentionKeys * f32AttentionPitch(headDim)
             : headDim * kF32AttentionKeyPitch;
}
TCX_HOST_DEVICE constexpr int f32AttentionSharedBytes(int headDim) {
  return 4 * ((kF32AttentionRows + 2 * kF32AttentionKeys) * f32AttentionPitch(headDim) +
              2 * f32AttentionKFloats(headDim));
}
// The blocks a multiprocessor's shared memory holds, at most 4: the kernel's launch bounds, so that
// its registers do not hold it to fewer (NVRTC gave d = 64 166 registers and 3 blocks unbounded).
TCX_HOST_DEVICE constexpr int f32AttentionMinBlocks(int headDim) {
  const int fit = 227 * 1024 / f32AttentionSharedBytes(headDim);
  return fit > 4 ? 4 : fit < 1 ? 1 : fit;
}

// l2_flush (the profiler's and KernelBench's flush between timed runs): threads a block.
inline constexpr int kL2FlushThreads = 256;

} // namespace tcx

#endif // TCX_ABI_H
