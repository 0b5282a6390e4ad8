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
// Three paths, which planConv picks (abi.h's ConvPath), each in its own header:
// - Staged (conv_staged.cuh, float): tiles of one image's pixels read their inputs from a window
//   of whole input rows that a cp.async pipeline copies a chunk of channels at a time.
// - Window (conv_window.cuh, float, fewer than 8 input channels): the staged tiles with all of K
//   in one stage, for stems over RGB images.
// - Gathered (conv_gather.cuh, any type): tiles running across images, both operands gathered
//   element by element.
// conv_halo.cuh holds what the staged and window paths share, conv_finish.cuh how every path
// hands its results to the epilogue.
//
// A grouped convolution is one such GEMM per group, blockIdx.z the group (ConvParams::groups).
//
// The epilogue is called once per output element as epilogue(image, cout, oh * ow_size + ow, acc).
// Offsets of x within one image and all offsets of w must fit an int.

#include "tcx/conv_gather.cuh"
#include "tcx/conv_staged.cuh"
#include "tcx/conv_window.cuh"

namespace tcx {

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
