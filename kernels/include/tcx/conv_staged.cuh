#ifndef TCX_CONV_STAGED_CUH
#define TCX_CONV_STAGED_CUH
// conv_implicit_gemm's staged path (float only; cp.async has no 2-byte copy): a kConvStages-deep
// cp.async pipeline copies, per chunk of input channels, the tile's input window (16 bytes at a
// time where the row is dense and inside the image, 4 bytes with zero fill at the halo and
// ragged edges) and the chunk's weights. Each input element then crosses from L2 once per chunk
// rather than kh * kw times, no registers hold gathered values, and K is walked tap by tap, 8
// channels at a time. A 1x1, unit-stride, unpadded convolution over a dense image arrives as a
// 1 x (h * w) image (the planner flattens it), i.e. a plain GEMM with 512-byte rows.

#include "tcx/conv_halo.cuh"

namespace tcx {
namespace detail {

// Fragment bits of a float rounded to tf32. Rounded at every fragment load: the copies bypass
// registers, and rounding each stage in place before its barrier measured slower (kernels/README.md);
// the window path, whose windows are small beside the steps that read them, rounds in place.
__device__ __forceinline__ unsigned tf32Bits(float x) { return __float_as_uint(toTf32(x)); }

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

} // namespace detail
} // namespace tcx

#endif // TCX_CONV_STAGED_CUH
