#ifndef TCX_CONV_GATHER_CUH
#define TCX_CONV_GATHER_CUH
// conv_implicit_gemm's gathered path (any type, any sizes; float where the images are small,
// since its tiles run across images where the staged tiles hold one image's pixels: 49 of 128 at
// 7 x 7): both operands are gathered element by element through their strides into registers, 16
// bytes of consecutive K per pixel (or output channel), and stored as rows of 128 bytes of K read
// by ldmatrix; rows of 32-bit and 16-bit elements have the same bytes per MMA step, so one
// addressing feeds both the tf32 and the 16-bit MMAs. Two stages: registers hold the next step's
// gather while the current step's MMAs run.

#include "tcx/conv_finish.cuh"
#include "tcx/mma.cuh"

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

} // namespace detail
} // namespace tcx

#endif // TCX_CONV_GATHER_CUH
