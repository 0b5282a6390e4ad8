#ifndef TCX_CONV_FINISH_CUH
#define TCX_CONV_FINISH_CUH
// How a conv_implicit_gemm block (8 warps of 32 x 32 outputs, m16n8 accumulators) hands its
// results to the epilogue, through split_k.cuh's handshake where K is split. Every path of the
// kernel ends here.

#include "tcx/epilogue.cuh"
#include "tcx/split_k.cuh"

namespace tcx {
namespace detail {

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

} // namespace detail
} // namespace tcx

#endif // TCX_CONV_FINISH_CUH
