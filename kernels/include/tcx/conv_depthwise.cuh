#ifndef TCX_CONV_DEPTHWISE_CUH
#define TCX_CONV_DEPTHWISE_CUH
// conv_depthwise: a 2-D NCHW convolution with one input and one output channel a group
// (depthwise: MobileNet's and EfficientNet's 3x3 and 5x5, ConvNeXt's 7x7), which the implicit GEMM
// would run at 1/64 of each MMA and the element form re-derives every index of, tap by tap. One
// thread per output element, consecutive threads along x's densest dimension, so that a tap's
// loads are consecutive addresses: along a row of the output (NCHW), or across channels where x is
// channels-last (ChannelsFastest: ConvNeXt's first depthwise reads its stem's output through a
// transpose); the taps re-read x from L1.
//
// Grid: planDepthwise (launch.h), block kDepthwiseThreads. ConvParams as conv_implicit_gemm takes
// them, with groups the channels and cin = cout = 1 (a group's channels); the epilogue is called
// once per output element as epilogue(image, channel, oh * ow_size + ow, acc).

#include "tcx/types.cuh"

namespace tcx {

template <typename T, bool ChannelsFastest, typename Epilogue>
__device__ __forceinline__ void conv_depthwise_body(const ConvParams& p, const Epilogue& epilogue) {
  const i64 index = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x;
  const i64 pixels = static_cast<i64>(p.oh) * p.ow;
  if (index >= p.batch * p.groups * pixels)
    return;
  int pixel, channel, image;
  if constexpr (ChannelsFastest) {
    channel = static_cast<int>(index % p.groups);
    const i64 rest = index / p.groups; // image * pixels + pixel
    pixel = static_cast<int>(rest % pixels), image = static_cast<int>(rest / pixels);
  } else {
    pixel = static_cast<int>(index % pixels);
    const i64 plane = index / pixels; // image * groups + channel
    channel = static_cast<int>(plane % p.groups), image = static_cast<int>(plane / p.groups);
  }
  const int oh = pixel / p.ow, ow = pixel % p.ow;
  const T* x = static_cast<const T*>(p.x) + image * p.xStride[0] + channel * p.xStride[1];
  const T* w = static_cast<const T*>(p.w) + channel * p.wStride[0];
  const int ih0 = oh * p.strideH - p.padH, iw0 = ow * p.strideW - p.padW;
  float acc = 0.0f;
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
  epilogue(image, channel, pixel, acc);
}

} // namespace tcx

#endif // TCX_CONV_DEPTHWISE_CUH
