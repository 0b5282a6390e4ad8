#include "profiler/VendorCalls.h"

#include "support/Error.h"

#include <cublas_v2.h>
#include <cudnn.h>
#include <fmt/format.h>

#include <algorithm>
#include <span>

namespace tcx::gpu {

namespace {

void checkCublas(cublasStatus_t status, std::string_view what) {
  TCX_CHECK(status == CUBLAS_STATUS_SUCCESS, ErrorKind::Device, "{}: {}", what, cublasGetStatusString(status));
}

void checkCudnn(cudnnStatus_t status, std::string_view what) {
  TCX_CHECK(status == CUDNN_STATUS_SUCCESS, ErrorKind::Device, "{}: {}", what, cudnnGetErrorString(status));
}

// One handle of each library for the process, made on first use (creating
// one costs tens of milliseconds) and kept until exit.
cublasHandle_t blasHandle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    checkCublas(cublasCreate(&h), "cublasCreate");
    return h;
  }();
  return handle;
}

cudnnHandle_t dnnHandle() {
  static cudnnHandle_t handle = [] {
    cudnnHandle_t h = nullptr;
    checkCudnn(cudnnCreate(&h), "cudnnCreate");
    return h;
  }();
  return handle;
}

// cuBLAS's workspace: what it picks kernels for, the same when measured and
// when run. 4 MiB (its default before Hopper) where A has many rows; 256 KiB
// for few-row GEMMs (decode projections, batch-1 classifiers), whose split-K
// kernels need little: on an H200 cuBLAS ran the Llama decode's 16 x 6144 x
// 4096 QKV projection with the same kernel in the same 16.4 us at 256 KiB,
// 1 MiB and 4 MiB, and the plan's extra memory fell from 5.5 to 1.7 MiB
// (docs/benchmarks.md, "A clean L2 before each timed run").
constexpr size_t kBlasWorkspaceBytes = 4 << 20;
constexpr size_t kFewRowsBlasWorkspaceBytes = 256 << 10;
constexpr int kFewRows = 64;

size_t blasWorkspaceBytes(const VendorGemm& g) {
  return g.m <= kFewRows ? kFewRowsBlasWorkspaceBytes : kBlasWorkspaceBytes;
}

cudaDataType_t blasType(ElemType type) {
  switch (type) {
  case ElemType::F32: return CUDA_R_32F;
  case ElemType::F16: return CUDA_R_16F;
  case ElemType::BF16: return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

cudnnDataType_t dnnType(ElemType type) {
  switch (type) {
  case ElemType::F32: return CUDNN_DATA_FLOAT;
  case ElemType::F16: return CUDNN_DATA_HALF;
  case ElemType::BF16: return CUDNN_DATA_BFLOAT16;
  }
  return CUDNN_DATA_FLOAT;
}

const char* at(const std::vector<void*>& addresses, const BufferBinding& binding) {
  return static_cast<const char*>(addresses.at(binding.buffer)) + binding.byteOffset;
}

// Row-major staged = A B is column-major staged^T = B^T A^T (VendorCall.h).
void enqueueGemm(const VendorGemm& g, const void* a, const void* b, void* staged, cudaStream_t stream,
                 VendorWorkspace workspace, const VendorCall& call) {
  const float one = 1.0f, zero = 0.0f;
  const BlasOperand x = *blasOperand(g.k, g.n, g.bStrides[1], g.bStrides[2]);
  const BlasOperand y = *blasOperand(g.m, g.k, g.aStrides[1], g.aStrides[2]);
  const cudaDataType_t type = blasType(g.type);
  cublasHandle_t h = blasHandle();
  checkCublas(cublasSetStream(h, stream), "cublasSetStream");
  checkCublas(cublasSetWorkspace(h, workspace.data, blasWorkspaceBytes(g)), "cublasSetWorkspace");
  checkCublas(cublasGemmStridedBatchedEx(h, x.transposed ? CUBLAS_OP_T : CUBLAS_OP_N,
                                         y.transposed ? CUBLAS_OP_T : CUBLAS_OP_N, g.n, g.m, g.k, &one, b, type,
                                         int(x.ld), g.bStrides[0], a, type, int(y.ld), g.aStrides[0], &zero, staged,
                                         type, g.n, int64_t(g.m) * g.n, g.batch,
                                         g.tf32 && g.type == ElemType::F32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                          : CUBLAS_COMPUTE_32F,
                                         CUBLAS_GEMM_DEFAULT),
              describeVendorCall(call));
}

} // namespace

std::string describeAlgorithm(VendorAlgorithm algorithm) {
  if (!algorithm.chosen()) return "cuBLAS";
  if (algorithm.algorithm == VendorAlgorithm::kAsGemm) return "cuBLAS (the 1x1 convolution as a GEMM)";
  const char* name = nullptr;
  switch (static_cast<cudnnConvolutionFwdAlgo_t>(algorithm.algorithm)) {
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: name = "IMPLICIT_GEMM"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: name = "IMPLICIT_PRECOMP_GEMM"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: name = "GEMM"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: name = "DIRECT"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT: name = "FFT"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: name = "FFT_TILING"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: name = "WINOGRAD"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: name = "WINOGRAD_NONFUSED"; break;
  case CUDNN_CONVOLUTION_FWD_ALGO_COUNT: break;
  }
  return name ? fmt::format("cuDNN {}", name) : fmt::format("cuDNN algorithm {}", algorithm.algorithm);
}

struct PreparedVendorCall::Conv {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;

  explicit Conv(const VendorConv& c) {
    checkCudnn(cudnnCreateTensorDescriptor(&x), "cudnnCreateTensorDescriptor");
    checkCudnn(cudnnCreateTensorDescriptor(&y), "cudnnCreateTensorDescriptor");
    checkCudnn(cudnnCreateFilterDescriptor(&w), "cudnnCreateFilterDescriptor");
    checkCudnn(cudnnCreateConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor");
    const cudnnDataType_t type = dnnType(c.type);
    checkCudnn(cudnnSetTensor4dDescriptorEx(x, type, c.batch, c.cin, c.h, c.w, int(c.xStrides[0]),
                                            int(c.xStrides[1]), int(c.xStrides[2]), int(c.xStrides[3])),
               "cudnnSetTensor4dDescriptorEx (the input)");
    checkCudnn(cudnnSetFilter4dDescriptor(w, type, CUDNN_TENSOR_NCHW, c.cout, c.cin / c.groups, c.kh, c.kw),
               "cudnnSetFilter4dDescriptor");
    checkCudnn(cudnnSetConvolution2dDescriptor(conv, c.padH, c.padW, c.strideH, c.strideW, c.dilationH,
                                               c.dilationW, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
               "cudnnSetConvolution2dDescriptor");
    checkCudnn(cudnnSetConvolutionGroupCount(conv, c.groups), "cudnnSetConvolutionGroupCount");
    // Float may take tf32 tensor cores, as PyTorch lets cuDNN by default.
    checkCudnn(cudnnSetConvolutionMathType(conv, c.type == ElemType::F32 ? CUDNN_DEFAULT_MATH
                                                                            : CUDNN_TENSOR_OP_MATH),
               "cudnnSetConvolutionMathType");
    checkCudnn(cudnnSetTensor4dDescriptor(y, c.channelsLastResult ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW, type,
                                          c.batch, c.cout, c.oh, c.ow),
               "cudnnSetTensor4dDescriptor (the result)");
    int n = 0, k = 0, oh = 0, ow = 0;
    checkCudnn(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &k, &oh, &ow),
               "cudnnGetConvolution2dForwardOutputDim");
    TCX_CHECK(n == c.batch && k == c.cout && oh == c.oh && ow == c.ow, ErrorKind::Internal,
              "cuDNN computes a {}x{}x{}x{} result for {}, not {}x{}x{}x{}", n, k, oh, ow, describeVendorCall(c),
              c.batch, c.cout, c.oh, c.ow);
  }
  ~Conv() {
    cudnnDestroyTensorDescriptor(x);
    cudnnDestroyTensorDescriptor(y);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyConvolutionDescriptor(conv);
  }
  Conv(const Conv&) = delete;
  Conv& operator=(const Conv&) = delete;
};

PreparedVendorCall::PreparedVendorCall(const VendorCall& call, const std::vector<void*>& addresses, void* staged,
                                       VendorWorkspace search, VendorAlgorithm algorithm)
    : call_(call), staged_(staged) {
  try {
    if (const auto* g = std::get_if<VendorGemm>(&call_)) {
      gemm_ = *g;
      gemmA_ = at(addresses, g->a);
      gemmB_ = at(addresses, g->b);
      algorithm_ = algorithm;
      workspaceBytes_ = blasWorkspaceBytes(*g);
      return;
    }
    const auto& c = std::get<VendorConv>(call_);
    a_ = at(addresses, c.x);
    b_ = at(addresses, c.weight);
    if ((gemm_ = convolutionAsGemm(c))) {
      gemmA_ = at(addresses, gemm_->a);
      gemmB_ = at(addresses, gemm_->b);
    }
    conv_ = std::make_unique<Conv>(c);
    if (!algorithm.chosen()) {
      // cudnnFind runs every algorithm on these buffers and sorts them by time.
      cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
      int returned = 0;
      checkCudnn(cudnnSetStream(dnnHandle(), nullptr), "cudnnSetStream");
      checkCudnn(cudnnFindConvolutionForwardAlgorithmEx(dnnHandle(), conv_->x, a_, conv_->w, b_, conv_->conv,
                                                        conv_->y, staged_, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                        &returned, perf, search.data, search.bytes),
                 "cudnnFindConvolutionForwardAlgorithmEx");
      for (const cudnnConvolutionFwdAlgoPerf_t& p : std::span(perf, static_cast<size_t>(returned)))
        if (p.status == CUDNN_STATUS_SUCCESS && p.memory <= search.bytes)
          ranked_.push_back({static_cast<int>(p.algo), static_cast<int>(p.mathType)});
      TCX_CHECK(!ranked_.empty(), ErrorKind::Device, "cuDNN has no algorithm that fits {} bytes of workspace",
                search.bytes);
      algorithm = ranked_.front();
    }
    use(algorithm);
  } catch (const Error& e) {
    throw e.withContext(describeVendorCall(call_));
  }
}

std::vector<VendorAlgorithm> PreparedVendorCall::candidates(size_t count) const {
  std::vector<VendorAlgorithm> out{algorithm_};
  if (!ranked_.empty())
    out.assign(ranked_.begin(), ranked_.begin() + static_cast<std::ptrdiff_t>(std::min(count, ranked_.size())));
  if (conv_ && gemm_ && algorithm_.algorithm != VendorAlgorithm::kAsGemm) out.push_back({VendorAlgorithm::kAsGemm});
  return out;
}

void PreparedVendorCall::use(VendorAlgorithm algorithm) {
  algorithm_ = algorithm;
  if (!conv_) return;
  if (algorithm_.algorithm == VendorAlgorithm::kAsGemm) {
    TCX_CHECK(gemm_, ErrorKind::Internal, "{} is no GEMM", describeVendorCall(call_));
    workspaceBytes_ = blasWorkspaceBytes(*gemm_);
    return;
  }
  checkCudnn(cudnnSetConvolutionMathType(conv_->conv, static_cast<cudnnMathType_t>(algorithm_.mathType)),
             "cudnnSetConvolutionMathType");
  checkCudnn(cudnnGetConvolutionForwardWorkspaceSize(dnnHandle(), conv_->x, conv_->w, conv_->conv, conv_->y,
                                                     static_cast<cudnnConvolutionFwdAlgo_t>(algorithm_.algorithm),
                                                     &workspaceBytes_),
             "cudnnGetConvolutionForwardWorkspaceSize");
}

PreparedVendorCall::~PreparedVendorCall() = default;

void PreparedVendorCall::enqueue(cudaStream_t stream, VendorWorkspace workspace) {
  if (!conv_ || algorithm_.algorithm == VendorAlgorithm::kAsGemm) {
    enqueueGemm(*gemm_, gemmA_, gemmB_, staged_, stream, workspace, call_);
    return;
  }
  const float one = 1.0f, zero = 0.0f;
  cudnnHandle_t h = dnnHandle();
  checkCudnn(cudnnSetStream(h, stream), "cudnnSetStream");
  checkCudnn(cudnnConvolutionForward(h, &one, conv_->x, a_, conv_->w, b_, conv_->conv,
                                     static_cast<cudnnConvolutionFwdAlgo_t>(algorithm_.algorithm), workspace.data,
                                     workspaceBytes_, &zero, conv_->y, staged_),
             describeVendorCall(call_));
}

} // namespace tcx::gpu
