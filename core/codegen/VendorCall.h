#pragma once
// A vendor library call (cuBLAS, cuDNN) that can stand in for a plan kernel's
// GEMM or convolution: the issue's "choose between generated code and a
// library call per shape by measurement". Code generation describes the
// call (operands as module buffers with strides, the problem's sizes); the
// profiler makes it (profiler/VendorCalls.h), times it against the kernel's
// generated code and keeps whichever is faster (profiler/VendorSelection.h).
//
// The library computes only the contraction, into a staging buffer laid out
// as the generated kernel's epilogue indexes its result, (batch, m, n)
// row-major. A small generated kernel then runs the plan kernel's epilogue
// functor over it -- the same functor the generated GEMM or convolution
// calls -- so bias, activation, residual and the stores through the outputs'
// mapping functions stay exactly the plan's. That costs one more write and
// read of the result, which the measurement weighs.

#include "codegen/GeneratedLaunch.h"
#include "tcx/launch.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace tcx {

// Which form of a plan kernel with an alternative the profiler runs: the
// faster by measurement (cached per device and shape), always the
// generated code, or always the vendor call (to test the calls).
enum class VendorPolicy { Measure, Never, Always };

// staged[batch][m][n] = sum_k A[batch][m][k] * B[batch][k][n]; strides are in
// elements, per (batch, row, column), every one >= 0 (0: shared by batches).
// Float accumulates in full fp32 (as PyTorch's default matmul) unless
// `tf32`, which a convolution's contraction sets: convolutions may use tf32
// tensor cores (VendorConv); 16-bit types on tensor cores with float
// accumulation.
struct VendorGemm {
  ElemType type = ElemType::F32;
  int batch = 1, m = 0, n = 0, k = 0;
  BufferBinding a, b;
  std::array<int64_t, 3> aStrides{}, bStrides{};
  bool tf32 = false;
};

// staged = the 2-D convolution of x (NCHW, any non-negative strides) with w
// (packed [cout][cin / groups][kh][kw]), symmetric padding, as NCHW packed,
// or NHWC packed with `channelsLastResult` (for a result stored channels-last:
// the epilogue then walks the channels innermost, as it stores).
// Float may use tf32 tensor cores, as cuDNN does by default (and PyTorch's
// convolutions with it).
struct VendorConv {
  ElemType type = ElemType::F32;
  int batch = 0, cin = 0, h = 0, w = 0, cout = 0, kh = 0, kw = 0, oh = 0, ow = 0;
  int padH = 0, padW = 0, strideH = 1, strideW = 1, dilationH = 1, dilationW = 1, groups = 1;
  BufferBinding x, weight;
  std::array<int64_t, 4> xStrides{};
  bool channelsLastResult = false;
};

using VendorCall = std::variant<VendorGemm, VendorConv>;

// A 1x1 convolution with stride 1, no padding and one group is a GEMM over
// its input's pixels: the same staged result from cuBLAS (tf32, as the
// convolution may), with W^T (packed [cout][cin]) as one operand and x's
// pixels as the other. With a channels-last result, staged (batch, pixel,
// cout) is pixels x W^T, one GEMM over every image's pixels where x's
// strides run on across images; with an NCHW result, each image's W x
// (cin x pixels). The profiler times it beside cuDNN's algorithms
// (profiler/VendorCalls.h): on an H200, ResNeXt-50's 1x1 convolutions at
// 56x56 (32 images) took 152-176 us on cuDNN with the epilogue kernel,
// where PyTorch's ran as one GEMM kernel each, 30.9 us on average
// (docs/benchmarks.md; most of the difference was the epilogue kernel,
// since given its loads in flight together: tcx/epilogue.cuh). nullopt for any other convolution, or where x's
// pixels do not run at one stride.
std::optional<VendorGemm> convolutionAsGemm(const VendorConv& conv);

// How a column-major BLAS reads the transpose of a row-major-indexed matrix
// M (rows x cols, element (r, c) at r * rowStride + c * colStride): as
// stored (op N) with leading dimension `ld` when M's columns are unit
// strided, else as the transpose (op T) of a column-major M. So the
// row-major C = A B is the column-major C^T = B^T A^T with each operand
// read this way. nullopt when neither stride is 1 (or `ld` is no int).
struct BlasOperand {
  bool transposed = false;
  int64_t ld = 0;
};
std::optional<BlasOperand> blasOperand(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride);

// A plan kernel's alternative: `call` writes the staging buffer, then
// `epilogue` (a launch of the module's code, bound like the kernel's other
// launches) runs the kernel's epilogue over it. When chosen it replaces
// the plan kernel's last launch, its library kernel; launches before it (a
// convolution's input staged where its kernel could not compute it as it
// loads, which the call reads) run either way.
struct VendorAlternative {
  int planKernel = 0;
  VendorCall call;
  int staging = -1; // module buffer: a scratch buffer every alternative shares
  int64_t stagingBytes = 0;
  GeneratedLaunch epilogue;
  // Runs before the call where the generated kernel computes the call's
  // input as it loads it (a pointwise convolution's BN-ReLU prologue): the
  // input into `input`, a scratch buffer every prelude shares
  // (ModuleBuilder::vendorInput).
  std::optional<GeneratedLaunch> prelude;
  int input = -1;
};

// "cuBLAS gemm 6304x3072x768 (batch 1, float)", "cuDNN conv 3x3 64->64 on 32x56x56 (stride 1, float)".
std::string describeVendorCall(const VendorCall& call);
// Everything that determines the call's speed, as text: part of the key
// under which a measured choice is cached.
std::string vendorCallKey(const VendorCall& call);
ElemType vendorCallType(const VendorCall& call);

} // namespace tcx
