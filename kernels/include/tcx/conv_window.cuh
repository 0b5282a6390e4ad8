#ifndef TCX_CONV_WINDOW_CUH
#define TCX_CONV_WINDOW_CUH
// conv_implicit_gemm's window path (float, fewer than 8 input channels: a stem over an RGB
// image). The staged path's 8 channels a step would be mostly zeros (3 channels of 7 x 7 taps: 49
// MMA steps for 147 of K), so K is walked in its (c, r, s) order instead, each kernel row padded
// with zero weights to 8 taps (4 where kw <= 4): a step is one padded row (or two), and a lane
// reads the window at its own tap plus offsets the step fixes (21 steps for 7 x 7 x 3, no index
// arithmetic or table in the loop). All of K fits one stage: a block keeps its channels' weights
// and walks pixel tiles, the next tile's window copied while this one's MMAs run; each window is
// rounded to tf32 in place once it lands (a tile's window is small beside the 21 steps that read
// it).

#include "tcx/conv_halo.cuh"

namespace tcx {
namespace detail {

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
} // namespace tcx

#endif // TCX_CONV_WINDOW_CUH
