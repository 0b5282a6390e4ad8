#ifndef TCX_CONV_HALO_CUH
#define TCX_CONV_HALO_CUH
// What conv_implicit_gemm's staged and window paths share: their tiles are tileH x tileW output
// pixels of one image (abi.h's ConvHaloGeometry), so the inputs a tile reads are, per channel, a
// window of whole input rows (its halo), copied with cp.async into shared memory, from which the
// MMA fragments are read at each tap's offset.

#include "tcx/conv_finish.cuh"
#include "tcx/mma.cuh"

namespace tcx {
namespace detail {

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

// A tile of output pixels on the staged and window paths: tileH x tileW pixels of one image from
// (oh0, ow0), tile number (image * tilesH + tile row) * tilesW + tile column. The number is
// unsigned, as blockIdx is: divided as an int it made the staged kernels' code a quarter to a half
// larger (ResNet-18's 3x3s at one image, nvcc 13 for sm_90a, compiled a part at a time as tcx
// compiles them), and a build that divided it so ran ResNet-18 at one image in 282.9 us against
// 278.6 on an H200.
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

} // namespace detail
} // namespace tcx

#endif // TCX_CONV_HALO_CUH
