#ifndef TCX_CONV_IMPLICIT_GEMM_CUH
#define TCX_CONV_IMPLICIT_GEMM_CUH
// conv_implicit_gemm: a 2-D convolution (NCHW, any kernel size, stride, padding and
// dilation) as a GEMM on tensor cores whose operands are never materialised: rows are the
// images * oh * ow output pixels, columns the output channels, K runs over (input channel,
// kernel row, kernel col). float runs as tf32 (operands rounded to nearest, fp32 accumulation:
// what cuDNN and PyTorch do for float convolutions by default); __half and __nv_bfloat16 natively.
// Grid: planConv (launch.h), block: kConvThreads; 8 warps of 32 x 32 outputs. blockIdx.x is the
// output tile, blockIdx.y the split of K: where the tiles are few (a 7 x 7 image has one tile of
// pixels) the splits each run a range of K steps and combine through split_k.cuh.
//
// Three paths, which planConv picks (abi.h's ConvPath):
// - Staged (float only; cp.async has no 2-byte copy): a block's output pixels are a tileH x tileW
//   rectangle of one image, so the inputs they read are, per channel, a small window of whole
//   input rows. A kConvStages-deep cp.async pipeline copies, per chunk of input channels, that
//   window (16 bytes at a time where the row is dense and inside the image, 4 bytes with zero
//   fill at the halo and ragged edges) and the chunk's weights. Each input element then crosses
//   from L2 once per chunk rather than kh * kw times, no registers hold gathered values, and the
//   MMA fragments are read from the window at each tap's offset: K is walked tap by tap, 8
//   channels at a time. A 1x1, unit-stride, unpadded convolution over a dense image arrives as a
//   1 x (h * w) image (the planner flattens it), i.e. a plain GEMM with 512-byte rows.
// - Window (float, fewer than 8 input channels: a stem over an RGB image): the staged path's 8
//   channels a step would be mostly zeros (3 channels of 7 x 7 taps: 49 MMA steps for 147 of K),
//   so K is walked in its (c, r, s) order instead, each kernel row padded with zero weights to 8
//   taps (4 where kw <= 4): a step is one padded row (or two), and a lane reads the window at its
//   own tap plus offsets the step fixes (21 steps for 7 x 7 x 3, no index arithmetic or table in
//   the loop). All of K fits one stage: a block keeps its channels' weights and walks pixel tiles,
//   the next tile's window copied while this one's MMAs run; each window is rounded to tf32 in
//   place once it lands (a tile's window is small beside the 21 steps that read it).
// - Gather (any type, any sizes; float where the images are small, since its tiles run across
//   images where the staged tiles hold one image's pixels: 49 of 128 at 7 x 7): both operands are
//   gathered element by element through their strides into registers, 16 bytes of consecutive K per pixel (or output channel), and stored as
//   rows of 128 bytes of K read by ldmatrix; rows of 32-bit and 16-bit elements have the same bytes
//   per MMA step, so one addressing feeds both the tf32 and the 16-bit MMAs. Two stages: registers
//   hold the next step's gather while the current step's MMAs run.
//
// A grouped convolution is one such GEMM per group, blockIdx.z the group (ConvParams::groups).
//
// The epilogue is called once per output element as epilogue(image, cout, oh * ow_size + ow, acc).
// Offsets of x within one image and all offsets of w must fit an int.

#include "tcx/epilogue.cuh"
#include "tcx/mma.cuh"
#include "tcx/split_k.cuh"

namespace tcx {
namespace detail {

template <typename T> inline constexpr int kConvVec = 16 / sizeof(T); // elements of one chunk
template <typename T> inline constexpr int kConvTileK = convTileK(sizeof(T));
inline constexpr int kConvAChunks = kConvTileM * 8 / kConvThreads; // 16-byte chunks a thread gathers
inline constexpr int kConvBChunks = kConvTileN * 8 / kConvThreads;

// Position (c, r, s) of a K index, stepped along K without dividing again.
struct ConvTap {
  int c, r, s;

  __device__ __forceinline__ ConvTap(const ConvParams& p, int k) {
    const int taps = p.kh * p.kw;
    c = k / taps;
    r = k % taps / p.kw;
    s = k % p.kw;
  }
  __device__ __forceinline__ void next(const ConvParams& p) {
    if (++s == p.kw) {
      s = 0;
      if (++r == p.kh) {
        r = 0;
        ++c;
      }
    }
  }
};

// An element as the MMA takes it from shared memory: floats rounded to tf32.
template <typename T> __device__ __forceinline__ T mmaOperand(T x) {
  if constexpr (isSame<T, float>)
    return toTf32(x);
  else
    return x;
}

// x's 16 bytes of K from `k` for one output pixel: image base (nullptr for a row beyond M) and the
// input position of kernel tap (0, 0).
template <typename T>
__device__ __forceinline__ Vec16<T> gatherInput(const ConvParams& p, const T* image, int ih0, int iw0, int k) {
  Vec16<T> chunk;
  const int kSize = p.cin * p.kh * p.kw;
  ConvTap tap(p, k);
#pragma unroll
  for (int v = 0; v < kConvVec<T>; ++v) {
    const int ih = ih0 + tap.r * p.dilationH, iw = iw0 + tap.s * p.dilationW;
    const bool inside = image && k + v < kSize && static_cast<unsigned>(ih) < static_cast<unsigned>(p.h) &&
                        static_cast<unsigned>(iw) < static_cast<unsigned>(p.width);
    const int offset = tap.c * static_cast<int>(p.xStride[1]) + ih * static_cast<int>(p.xStride[2]) +
                       iw * static_cast<int>(p.xStride[3]);
    chunk.v[v] = mmaOperand(inside ? image[offset] : from_float<T>(0.0f));
    tap.next(p);
  }
  return chunk;
}

// w's 16 bytes of K from `k` for output channel n.
template <typename T> __device__ __forceinline__ Vec16<T> gatherWeight(const ConvParams& p, int n, int k) {
  Vec16<T> chunk;
  const T* w = static_cast<const T*>(p.w);
  const int kSize = p.cin * p.kh * p.kw;
  ConvTap tap(p, k);
#pragma unroll
  for (int v = 0; v < kConvVec<T>; ++v) {
    const int offset = n * static_cast<int>(p.wStride[0]) + tap.c * static_cast<int>(p.wStride[1]) +
                       tap.r * static_cast<int>(p.wStride[2]) + tap.s * static_cast<int>(p.wStride[3]);
    chunk.v[v] = mmaOperand(n < p.cout && k + v < kSize ? w[offset] : from_float<T>(0.0f));
    tap.next(p);
  }
  return chunk;
}

// Hands the block's accumulators to the epilogue, through the split-K handshake when there is one.
// Element e of acc[mi][ni] is output channel nBase + 8 ni + 2 t + e % 2 of the pixel that
// pixelOf(mi, e / 2, image, pixel) names; it returns false for rows beyond the output.
template <typename Epilogue, typename PixelOf>
__device__ __forceinline__ void convFinish(const ConvParams& p, const Epilogue& epilogue, float (&acc)[2][4][4],
                                           int nBase, const PixelOf& pixelOf) {
  if (p.splitK > 1 && !splitKCombine<kConvThreads, 32>(&acc[0][0][0], p.workspace, blockIdx.x, blockIdx.y, p.splitK))
    return;
  const int t = threadIdx.x % 4;
  // A group is one (mi, half) row's eight results.
  runEpilogue<8, 32>(epilogue, [&](int i) {
    const int mi = i / 16, half = i / 8 % 2, ni = i / 2 % 4, e = i % 2;
    int image = 0, pixel = 0;
    const bool row = pixelOf(mi, half, image, pixel);
    const int n = nBase + ni * 8 + 2 * t + e;
    return EpilogueAt{image, n, pixel, acc[mi][ni][2 * half + e], row && n < p.cout};
  });
}

template <typename T, typename Epilogue>
__device__ __forceinline__ void convGatherBody(const ConvParams& p, const Epilogue& epilogue) {
  unsigned char* shared = dynamicShared();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4;
  const int warpM = warp % 4, warpN = warp / 4; // 4 x 2 warps of 32 x 32
  const int pixelsPerImage = p.oh * p.ow, rows = p.batch * pixelsPerImage;
  const int tilesN = (p.cout + kConvTileN - 1) / kConvTileN;
  const int m0 = blockIdx.x / tilesN * kConvTileM, n0 = blockIdx.x % tilesN * kConvTileN;
  const int kSize = p.cin * p.kh * p.kw, kTiles = (kSize + kConvTileK<T> - 1) / kConvTileK<T>;
  const int ktBegin = blockIdx.y * p.stepsPerSplit, ktEnd = min(kTiles, ktBegin + p.stepsPerSplit);

  // This thread gathers x for one pixel (row) of the tile, chunks rowChunk + 2j of its K step.
  const int row = threadIdx.x % kConvTileM, rowChunk = threadIdx.x / kConvTileM;
  const T* image = nullptr;
  int ih0 = 0, iw0 = 0;
  if (m0 + row < rows) {
    const int img = (m0 + row) / pixelsPerImage, pixel = (m0 + row) % pixelsPerImage;
    image = static_cast<const T*>(p.x) + img * p.xStride[0];
    ih0 = pixel / p.ow * p.strideH - p.padH;
    iw0 = pixel % p.ow * p.strideW - p.padW;
  }

  Vec16<T> a[kConvAChunks], b[kConvBChunks];
  auto fetch = [&](int kt) {
    const int k0 = kt * kConvTileK<T>;
#pragma unroll
    for (int j = 0; j < kConvAChunks; ++j)
      a[j] = gatherInput(p, image, ih0, iw0, k0 + (rowChunk + 2 * j) * kConvVec<T>);
#pragma unroll
    for (int j = 0; j < kConvBChunks; ++j) {
      const int chunk = threadIdx.x + j * kConvThreads;
      b[j] = gatherWeight<T>(p, n0 + chunk / 8, k0 + chunk % 8 * kConvVec<T>);
    }
  };
  auto publish = [&](int stage) {
    unsigned char* as = shared + stage * kConvStageBytes;
    unsigned char* bs = as + kConvTileM * kConvRowBytes;
#pragma unroll
    for (int j = 0; j < kConvAChunks; ++j)
      a[j].store(reinterpret_cast<T*>(as + row * kConvRowBytes + (rowChunk + 2 * j) * 16));
#pragma unroll
    for (int j = 0; j < kConvBChunks; ++j) {
      const int chunk = threadIdx.x + j * kConvThreads;
      b[j].store(reinterpret_cast<T*>(bs + chunk / 8 * kConvRowBytes + chunk % 8 * 16));
    }
  };

  float acc[2][4][4] = {};
  fetch(ktBegin);
  publish(ktBegin % 2);
  __syncthreads();
  for (int kt = ktBegin; kt < ktEnd; ++kt) {
    if (kt + 1 < ktEnd)
      fetch(kt + 1);
    const unsigned char* as = shared + kt % 2 * kConvStageBytes;
    const unsigned char* bs = as + kConvTileM * kConvRowBytes;
#pragma unroll
    for (int ks = 0; ks < 4; ++ks) {
      unsigned af[2][4], bf[4][2];
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
        ldmatrixX4(af[mi], as + (warpM * 32 + mi * 16 + lane % 16) * kConvRowBytes + ks * 32 + lane / 16 * 16);
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {
        unsigned r[4];
        ldmatrixX4(r, bs + (warpN * 32 + pair * 16 + lane % 8 + lane / 16 * 8) * kConvRowBytes + ks * 32 +
                          (lane / 8) % 2 * 16);
        bf[2 * pair][0] = r[0];
        bf[2 * pair][1] = r[1];
        bf[2 * pair + 1][0] = r[2];
        bf[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
          mmaStep<T>(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
    }
    // The other stage was last read before the previous step's barrier, so it can be refilled now;
    // this step's barrier then publishes it and frees the stage just read.
    if (kt + 1 < ktEnd)
      publish((kt + 1) % 2);
    __syncthreads();
  }
  convFinish(p, epilogue, acc, n0 + warpN * 32, [&](int mi, int half, int& img, int& pixel) {
    const int m = m0 + warpM * 32 + mi * 16 + g + 8 * half;
    img = m / pixelsPerImage, pixel = m % pixelsPerImage;
    return m < rows;
  });
}

// Four consecutive shared floats at `dst`: element(e) is the e-th's global address, or nullptr
// for a zero. Where `run` (the four are one 16-byte-aligned run, or all zero), one 16-byte copy.
template <typename Element>
__device__ __forceinline__ void copyFour(float* dst, const float* anyValid, bool run, const Element& element) {
  if (run) {
    const float* src = element(0);
    cpAsync16(dst, src ? src : anyValid, src ? 16 : 0);
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const float* src = element(e);
    cpAsync4(dst + e, src ? src : anyValid, src ? 4 : 0);
  }
}

// [first, first + 4) lies inside [0, size) or outside it, as a whole.
__device__ __forceinline__ bool wholeRun(int first, int size) {
  return (first >= 0 && first + 4 <= size) || first + 4 <= 0 || first >= size;
}

// The runs of four floats a window is copied in: run i of the thread that copies it (threads
// take runs threadIdx.x, + kConvThreads, ...) is channel c's row `row` from column `col`.
struct WindowRun {
  int c, row, col;

  __device__ __forceinline__ WindowRun(const ConvHaloGeometry& geo, int i) {
    const int rowRuns = geo.pitch / 4;
    c = i / (geo.haloRows * rowRuns), row = i / rowRuns % geo.haloRows, col = i % rowRuns * 4;
  }
  __device__ __forceinline__ static int count(const ConvHaloGeometry& geo) {
    return geo.chunkC * geo.haloRows * (geo.pitch / 4);
  }
  __device__ __forceinline__ int offset(const ConvHaloGeometry& geo) const {
    return c * geo.channelFloats + row * geo.pitch + col;
  }
};

// Copies (cp.async, not committed) the input window of geo.chunkC channels from c0 of `image`
// (x's image base) to `window`: each channel's haloRows rows of `pitch` floats from input row ih0
// and column iw0, zero outside the image and past the last channel.
__device__ __forceinline__ void copyWindow(const ConvParams& p, const ConvHaloGeometry& geo, const float* image, int c0,
                                           int ih0, int iw0, float* window) {
  for (int i = threadIdx.x; i < WindowRun::count(geo); i += kConvThreads) {
    const WindowRun run(geo, i);
    const int ih = ih0 + run.row, iw = iw0 + run.col;
    const bool rowInside = c0 + run.c < p.cin && static_cast<unsigned>(ih) < static_cast<unsigned>(p.h);
    const float* rowStart =
        image + (c0 + run.c) * static_cast<int>(p.xStride[1]) + ih * static_cast<int>(p.xStride[2]);
    copyFour(window + run.offset(geo), image, p.vectorX && (!rowInside || wholeRun(iw, p.width)),
             [&](int e) -> const float* {
               const bool inside = rowInside && static_cast<unsigned>(iw + e) < static_cast<unsigned>(p.width);
               return inside ? rowStart + (iw + e) * static_cast<int>(p.xStride[3]) : nullptr;
             });
  }
}

// Rounds to tf32, in place, the runs of `window` this thread copied: once its copies have landed
// (cp.async.wait_group), before the barrier that publishes them.
__device__ __forceinline__ void roundWindow(const ConvHaloGeometry& geo, float* window) {
  for (int i = threadIdx.x; i < WindowRun::count(geo); i += kConvThreads) {
    float4* run = reinterpret_cast<float4*>(window + WindowRun(geo, i).offset(geo));
    float4 v = *run;
    v.x = toTf32(v.x), v.y = toTf32(v.y), v.z = toTf32(v.z), v.w = toTf32(v.w);
    *run = v;
  }
}

// Fragment bits of a float rounded to tf32. Rounded at every fragment load: the copies bypass
// registers, and rounding each stage in place before its barrier measured slower (kernels/README.md).
__device__ __forceinline__ unsigned tf32Bits(float x) { return __float_as_uint(toTf32(x)); }

// A tile of output pixels on the staged and window paths: tileH x tileW pixels of one image from
// (oh0, ow0), tile number (image * tilesH + tile row) * tilesW + tile column. The number is
// unsigned, as blockIdx is: divided as an int it made the staged kernels' code a quarter to a half
// larger (ResNet-18's 3x3s at one image, nvcc 13 for sm_90a, compiled a part at a time as tcx
// compiles them), and ResNet-18 at one image took 282.9 us against 278.6 on an H200.
struct HaloTile {
  int image, oh0, ow0;

  __device__ __forceinline__ HaloTile(const ConvParams& p, const ConvHaloGeometry& geo, unsigned tile) {
    const int tilesW = (p.ow + geo.tileW - 1) / geo.tileW, tilesH = (p.oh + geo.tileH - 1) / geo.tileH;
    ow0 = tile % tilesW * geo.tileW;
    oh0 = tile / tilesW % tilesH * geo.tileH;
    image = tile / (tilesW * tilesH);
  }
  // The input position of the window's first row and shared column.
  __device__ __forceinline__ int ih0(const ConvParams& p) const { return oh0 * p.strideH - p.padH; }
  __device__ __forceinline__ int iw0(const ConvParams& p, const ConvHaloGeometry& geo) const {
    return ow0 * p.strideW - p.padW - geo.lead;
  }
  // Hands a warp's accumulators (its rows from warpM * 32) to the epilogue.
  template <typename Epilogue>
  __device__ __forceinline__ void finish(const ConvParams& p, const ConvHaloGeometry& geo, const Epilogue& epilogue,
                                         float (&acc)[2][4][4], int nBase, int warpM) const {
    const int g = threadIdx.x % 32 / 4;
    convFinish(p, epilogue, acc, nBase, [&](int mi, int half, int& img, int& pixel) {
      const int m = warpM * 32 + mi * 16 + g + 8 * half;
      const int oh = oh0 + m / geo.tileW, ow = ow0 + m % geo.tileW;
      img = image, pixel = oh * p.ow + ow;
      return oh < p.oh && ow < p.ow;
    });
  }
};

// Offsets in a channel's window of this lane's fragment rows (mi, g / g + 8) at tap (0, 0).
__device__ __forceinline__ void fragmentPixels(const ConvParams& p, const ConvHaloGeometry& geo, int warpM,
                                               int (&pixel)[2][2]) {
  const int g = threadIdx.x % 32 / 4;
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int m = warpM * 32 + mi * 16 + g + 8 * half;
      pixel[mi][half] = m / geo.tileW * p.strideH * geo.pitch + geo.lead + m % geo.tileW * p.strideW;
    }
}

template <typename Epilogue>
__device__ __forceinline__ void convStagedBody(const ConvParams& p, const Epilogue& epilogue) {
  const ConvHaloGeometry geo = convHaloGeometry(p);
  float* shared = reinterpret_cast<float*>(dynamicShared());
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int warpM = warp % 4, warpN = warp / 4;
  const int taps = p.kh * p.kw, kSize = p.cin * taps, kRun = geo.chunkC * taps;
  const int tilesN = (p.cout + kConvTileN - 1) / kConvTileN;
  // Channel tiles of one pixel tile are adjacent blocks: they copy the same window while it is in L2.
  const int n0 = blockIdx.x % tilesN * kConvTileN;
  const HaloTile tile(p, geo, blockIdx.x / tilesN);
  const float* x = static_cast<const float*>(p.x) + tile.image * p.xStride[0];
  const float* w = static_cast<const float*>(p.w);
  const int ih0 = tile.ih0(p), iw0 = tile.iw0(p, geo);
  const int chunks = (p.cin + geo.chunkC - 1) / geo.chunkC;
  const int chunkBegin = blockIdx.y * p.stepsPerSplit, steps = min(chunks, chunkBegin + p.stepsPerSplit) - chunkBegin;

  auto load = [&](int chunk, int stage) {
    float* as = shared + stage * geo.stageFloats;
    float* bs = as + geo.chunkC * geo.channelFloats;
    const int c0 = chunk * geo.chunkC;
    copyWindow(p, geo, x, c0, ih0, iw0, as);
    for (int i = threadIdx.x; i < kConvTileN * kRun / 4; i += kConvThreads) {
      const int n = n0 + i / (kRun / 4), j = i % (kRun / 4) * 4, k = c0 * taps + j;
      copyFour(bs + (n - n0) * geo.weightPitch + j, w, p.vectorW && (n >= p.cout || wholeRun(k, kSize)),
               [&](int e) -> const float* {
                 const int tap = (k + e) % taps;
                 return n < p.cout && k + e < kSize
                            ? w + n * static_cast<int>(p.wStride[0]) + (k + e) / taps * static_cast<int>(p.wStride[1]) +
                                  tap / p.kw * static_cast<int>(p.wStride[2]) + tap % p.kw * static_cast<int>(p.wStride[3])
                            : nullptr;
               });
    }
  };

  int pixel[2][2];
  fragmentPixels(p, geo, warpM, pixel);

  float acc[2][4][4] = {};
#pragma unroll
  for (int s = 0; s < kConvStages - 1; ++s) {
    if (s < steps)
      load(chunkBegin + s, s);
    cpAsyncCommit();
  }
  for (int kt = 0; kt < steps; ++kt) {
    cpAsyncWait<kConvStages - 2>();
    // Publishes step kt, and every warp is done with the stage the next load overwrites.
    __syncthreads();
    if (kt + kConvStages - 1 < steps)
      load(chunkBegin + kt + kConvStages - 1, (kt + kConvStages - 1) % kConvStages);
    cpAsyncCommit();
    const float* as = shared + kt % kConvStages * geo.stageFloats;
    const float* bs = as + geo.chunkC * geo.channelFloats + (warpN * 32 + g) * geo.weightPitch + t * taps;
#pragma unroll
    for (int r = 0; r < p.kh; ++r)
#pragma unroll
      for (int s = 0; s < p.kw; ++s)
#pragma unroll
        for (int c8 = 0; c8 < geo.chunkC; c8 += 8) {
          const float* a = as + (c8 + t) * geo.channelFloats + r * p.dilationH * geo.pitch + s * p.dilationW;
          const float* b = bs + c8 * taps + r * p.kw + s;
          unsigned af[2][4];
#pragma unroll
          for (int mi = 0; mi < 2; ++mi) {
            af[mi][0] = tf32Bits(a[pixel[mi][0]]);
            af[mi][1] = tf32Bits(a[pixel[mi][1]]);
            af[mi][2] = tf32Bits(a[4 * geo.channelFloats + pixel[mi][0]]);
            af[mi][3] = tf32Bits(a[4 * geo.channelFloats + pixel[mi][1]]);
          }
#pragma unroll
          for (int ni = 0; ni < 4; ++ni) {
            const unsigned b0 = tf32Bits(b[ni * 8 * geo.weightPitch]);
            const unsigned b1 = tf32Bits(b[ni * 8 * geo.weightPitch + 4 * taps]);
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
              mma1688Tf32(acc[mi][ni], af[mi], b0, b1);
          }
        }
  }
  tile.finish(p, geo, epilogue, acc, n0 + warpN * 32, warpM);
}

template <typename Epilogue>
__device__ __forceinline__ void convWindowBody(const ConvParams& p, const Epilogue& epilogue) {
  const ConvHaloGeometry geo = convHaloGeometry(p, ConvPath::Window);
  float* weights = reinterpret_cast<float*>(dynamicShared());
  float* windows = weights + kConvTileN * geo.weightPitch;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int warpM = warp % 4, warpN = warp / 4;
  const int rowTaps = convWindowRowTaps(p), rows = p.cin * p.kh, kPadded = geo.weightPitch - 4;
  const int tilesN = (p.cout + kConvTileN - 1) / kConvTileN;
  const int pixelTiles = convHaloTiles(p, geo);
  // As on the staged path the channel tiles of a pixel tile are adjacent blocks; the grid holds a
  // whole number of pixel-tile columns, each block walking its pixel tiles gridDim.x / tilesN apart.
  const int n0 = blockIdx.x % tilesN * kConvTileN, firstTile = blockIdx.x / tilesN, tileStride = gridDim.x / tilesN;
  const float* x = static_cast<const float*>(p.x);
  const float* w = static_cast<const float*>(p.w);

  auto load = [&](int number, int stage) {
    const HaloTile tile(p, geo, number);
    copyWindow(p, geo, x + tile.image * p.xStride[0], 0, tile.ih0(p), tile.iw0(p, geo),
               windows + stage * geo.stageFloats);
  };
  if (firstTile < pixelTiles)
    load(firstTile, 0);
  cpAsyncCommit();
  // The weights in K's padded order, (c, r, s) with s < rowTaps, rounded to tf32 once and zero
  // past kw, K and cout, while the first window is in flight.
  for (int i = threadIdx.x; i < kConvTileN * kPadded; i += kConvThreads) {
    const int n = n0 + i / kPadded, k = i % kPadded, row = k / rowTaps, s = k % rowTaps;
    weights[(n - n0) * geo.weightPitch + k] =
        n < p.cout && row < rows && s < p.kw
            ? toTf32(w[n * static_cast<int>(p.wStride[0]) + row / p.kh * static_cast<int>(p.wStride[1]) +
                       row % p.kh * static_cast<int>(p.wStride[2]) + s * static_cast<int>(p.wStride[3])])
            : 0.0f;
  }
  // The window offset of padded kernel row `row` (c, r) at tap 0; past the last row, whose weights
  // are zero, the first row's (the window's own, finite, values).
  auto rowOffset = [&](int row) {
    return row < rows ? row / p.kh * geo.channelFloats + row % p.kh * p.dilationH * geo.pitch : 0;
  };

  int pixel[2][2];
  fragmentPixels(p, geo, warpM, pixel);
  // A step of 8 is K from k0: lane t's two A columns are taps t and t + 4 of one padded row of 8,
  // or tap t of two padded rows of 4; p's sizes are literals in generated kernels, so with the
  // step loop unrolled the offsets past the lane's own are immediates.
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int half = 0; half < 2; ++half)
      pixel[mi][half] += t * p.dilationW;
  // A warp whose channels all lie past cout (a 96-channel stem's second tile) only waits at the barriers.
  const bool active = n0 + warpN * 32 < p.cout;
  int stage = 0;
  for (int number = firstTile; number < pixelTiles; number += tileStride, stage ^= 1) {
    if (number + tileStride < pixelTiles)
      load(number + tileStride, stage ^ 1);
    cpAsyncCommit();
    cpAsyncWait<1>();
    float* a = windows + stage * geo.stageFloats;
    roundWindow(geo, a);
    // Publishes this tile's window (the first time, the weights too).
    __syncthreads();
    float acc[2][4][4] = {};
    if (active) {
      const float* b = weights + (warpN * 32 + g) * geo.weightPitch + t;
#pragma unroll
      for (int k0 = 0; k0 < kPadded; k0 += 8) {
        const int low = rowOffset(k0 / rowTaps);
        const int high = rowTaps == 8 ? low + 4 * p.dilationW : rowOffset(k0 / rowTaps + 1);
        unsigned af[2][4];
#pragma unroll
        for (int mi = 0; mi < 2; ++mi) {
          af[mi][0] = __float_as_uint(a[pixel[mi][0] + low]);
          af[mi][1] = __float_as_uint(a[pixel[mi][1] + low]);
          af[mi][2] = __float_as_uint(a[pixel[mi][0] + high]);
          af[mi][3] = __float_as_uint(a[pixel[mi][1] + high]);
        }
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
          const unsigned b0 = __float_as_uint(b[ni * 8 * geo.weightPitch + k0]);
          const unsigned b1 = __float_as_uint(b[ni * 8 * geo.weightPitch + k0 + 4]);
#pragma unroll
          for (int mi = 0; mi < 2; ++mi)
            mma1688Tf32(acc[mi][ni], af[mi], b0, b1);
        }
      }
    }
    HaloTile(p, geo, number).finish(p, geo, epilogue, acc, n0 + warpN * 32, warpM);
    // Every warp is done with this window before the next iteration copies the one after into it.
    __syncthreads();
  }
}

} // namespace detail

// T: float (tf32 tensor cores), __half or __nv_bfloat16; Path: the staged and window paths take
// float only.
template <typename T, ConvPath Path, typename Epilogue>
__device__ __forceinline__ void conv_implicit_gemm_body(const ConvParams& p, const Epilogue& epilogue) {
  // The group's channels of x and w, and of the output: offsets of zero for one group.
  const int group = blockIdx.z;
  ConvParams q = p;
  q.x = static_cast<const T*>(p.x) + group * p.cin * p.xStride[1];
  q.w = static_cast<const T*>(p.w) + group * p.cout * p.wStride[0];
  const ChannelOffset<Epilogue> grouped{epilogue, group * p.cout};
  if constexpr (Path == ConvPath::Staged) {
    static_assert(isSame<T, float>, "the staged path copies 32-bit elements");
    detail::convStagedBody(q, grouped);
  } else if constexpr (Path == ConvPath::Window) {
    static_assert(isSame<T, float>, "the window path copies 32-bit elements");
    detail::convWindowBody(q, grouped);
  } else {
    detail::convGatherBody<T>(q, grouped);
  }
}

} // namespace tcx

#endif // TCX_CONV_IMPLICIT_GEMM_CUH
