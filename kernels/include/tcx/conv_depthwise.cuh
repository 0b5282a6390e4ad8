#ifndef TCX_CONV_DEPTHWISE_CUH
#define TCX_CONV_DEPTHWISE_CUH
// conv_depthwise: a 2-D convolution with one input and one output channel a group (depthwise:
// MobileNet's and EfficientNet's 3x3 and 5x5, ConvNeXt's 7x7), which the implicit GEMM would run
// at 1/64 of each MMA. Two bodies, by x's layout (planDepthwise, launch.h):
//
// conv_depthwise_body, for x whose rows are dense (NCHW): one thread an output element,
// consecutive threads along a row of the output, so that a tap's loads are consecutive
// addresses; a block's 256 outputs span a few rows, whose taps re-read x from L1. Grid 1-D over
// the outputs. It also runs grouped convolutions of few channels a group (p.cin and p.cout per
// group; a thread folds its group's p.cin input channels), which the implicit GEMM's 64-channel
// tiles would mostly waste.
//
// conv_depthwise_tiled_body, for channels-last x (ConvNeXt's first depthwise reads its stem's
// output through a transpose): a thread an output along the channels would cover under three
// pixels a block and re-read each input from L2 for every tap (that 7x7 took 682 us at 32
// images on an H100, against 154 us for the same convolution over NCHW). A block instead computes
// a tile of p.tileRows output rows (all their columns) of p.tileChannels channels of one image:
// it stages the input rows the tile reads (padding as zeros) with consecutive threads across
// channels, and the channels' filters, in shared memory as float, then computes each output from
// there, consecutive threads along an output row. Grid: x the row tiles, y the channel tiles, z
// the images; dynamic shared memory depthwiseSharedBytes (launch.h).
//
// Block kDepthwiseThreads. ConvParams as conv_implicit_gemm takes them, with groups the channels
// and cin = cout = 1 (a group's channels); the epilogue is called once per output element as
// epilogue(image, channel, oh * ow_size + ow, acc).

#include "tcx/types.cuh"

namespace tcx {

template <typename T, typename Epilogue>
__device__ __forceinline__ void conv_depthwise_body(const ConvParams& p, const Epilogue& epilogue) {
  const i64 index = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  const i64 pixels = static_cast<i64>(p.oh) * p.ow;
  const int channels = p.groups * p.cout;
  if (index >= p.batch * channels * pixels)
    return;
  const int pixel = static_cast<int>(index % pixels);
  const i64 plane = index / pixels; // image * channels + channel
  const int channel = static_cast<int>(plane % channels), image = static_cast<int>(plane / channels);
  const int oh = pixel / p.ow, ow = pixel % p.ow;
  const T* x = static_cast<const T*>(p.x) + image * p.xStride[0] + (channel / p.cout) * p.cin * p.xStride[1];
  const T* w = static_cast<const T*>(p.w) + channel * p.wStride[0];
  const int ih0 = oh * p.strideH - p.padH, iw0 = ow * p.strideW - p.padW;
  float acc = 0.0f;
  for (int c = 0; c < p.cin; ++c, x += p.xStride[1], w += p.wStride[1]) {
    for (int r = 0; r < p.kh; ++r) {
      const int ih = ih0 + r * p.dilationH;
      if (static_cast<unsigned>(ih) >= static_cast<unsigned>(p.h))
        continue;
      for (int s = 0; s < p.kw; ++s) {
        const int iw = iw0 + s * p.dilationW;
        if (static_cast<unsigned>(iw) < static_cast<unsigned>(p.width))
          acc += to_float(x[ih * p.xStride[2] + iw * p.xStride[3]]) * to_float(w[r * p.wStride[2] + s * p.wStride[3]]);
      }
    }
  }
  epilogue(image, channel, pixel, acc);
}

template <typename T, typename Epilogue>
__device__ __forceinline__ void conv_depthwise_tiled_body(const ConvParams& p, const Epilogue& epilogue) {
  extern __shared__ __align__(16) unsigned char conv_depthwise_shared[];
  const int oh0 = blockIdx.x * p.tileRows, c0 = blockIdx.y * p.tileChannels, image = blockIdx.z;
  const int rows = min(p.tileRows, p.oh - oh0), channels = min(p.tileChannels, p.groups - c0);
  if (image >= p.batch || rows <= 0 || channels <= 0)
    return;
  const int taps = p.kh * p.kw;
  const int tileH = (rows - 1) * p.strideH + (p.kh - 1) * p.dilationH + 1;
  const int tileW = (p.ow - 1) * p.strideW + (p.kw - 1) * p.dilationW + 1;
  // An odd plane stride puts the channels of one staging store on distinct banks.
  const int plane = (tileH * tileW) | 1;
  float* const filter = reinterpret_cast<float*>(conv_depthwise_shared); // [channel][tap]
  float* const tile = filter + p.tileChannels * taps;                     // [channel][row][column]
  const T* const w = static_cast<const T*>(p.w);
  for (int e = threadIdx.x; e < channels * taps; e += blockDim.x) {
    const int c = e / taps, tap = e % taps;
    filter[e] = to_float(w[(c0 + c) * p.wStride[0] + (tap / p.kw) * p.wStride[2] + (tap % p.kw) * p.wStride[3]]);
  }
  const T* const x = static_cast<const T*>(p.x) + image * p.xStride[0];
  const int ih0 = oh0 * p.strideH - p.padH;
  for (int e = threadIdx.x; e < channels * tileH * tileW; e += blockDim.x) {
    const int c = e % channels, rest = e / channels;
    const int col = rest % tileW, r = rest / tileW;
    const int ih = ih0 + r, iw = col - p.padW;
    float v = 0.0f;
    if (static_cast<unsigned>(ih) < static_cast<unsigned>(p.h) && static_cast<unsigned>(iw) < static_cast<unsigned>(p.width))
      v = to_float(x[(c0 + c) * p.xStride[1] + ih * p.xStride[2] + iw * p.xStride[3]]);
    tile[c * plane + r * tileW + col] = v;
  }
  __syncthreads();
  for (int e = threadIdx.x; e < channels * rows * p.ow; e += blockDim.x) {
    const int ow = e % p.ow, rest = e / p.ow;
    const int r = rest % rows, c = rest / rows;
    const float* const in = tile + c * plane + r * p.strideH * tileW + ow * p.strideW;
    const float* const f = filter + c * taps;
    float acc = 0.0f;
    for (int i = 0; i < p.kh; ++i)
      for (int j = 0; j < p.kw; ++j)
        acc += in[i * p.dilationH * tileW + j * p.dilationW] * f[i * p.kw + j];
    epilogue(image, c0 + c, (oh0 + r) * p.ow + ow, acc);
  }
}

} // namespace tcx

#endif // TCX_CONV_DEPTHWISE_CUH
