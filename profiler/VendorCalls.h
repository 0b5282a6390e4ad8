#pragma once
// Vendor library calls (core/codegen/VendorCall.h) made on the device:
// cuBLAS for GEMMs, cuDNN for convolutions. One handle of each per process,
// created on first use; every call takes the stream it is enqueued on and a
// workspace the caller owns (at least workspaceBytes()), so a plan's calls
// can be captured into its CUDA graph with the generated kernels around
// them, and share one workspace sized for the largest.

#include "codegen/VendorCall.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcx::gpu {

struct VendorWorkspace {
  void* data = nullptr;
  size_t bytes = 0;
};

// cuDNN's forward algorithm and math type for a convolution, or kAsGemm:
// the convolution as a cuBLAS GEMM (convolutionAsGemm). Unused for a GEMM,
// where cuBLAS picks its kernel by its own heuristics every call.
struct VendorAlgorithm {
  // No cudnnConvolutionFwdAlgo_t (there are CUDNN_CONVOLUTION_FWD_ALGO_COUNT, 8).
  static constexpr int kAsGemm = 100;
  int algorithm = -1;
  int mathType = 0;
  bool chosen() const { return algorithm >= 0; }
};

// The library form `algorithm` names, for reports: "cuBLAS" for a GEMM,
// "cuDNN FFT_TILING" (cuDNN's name for the algorithm), "cuBLAS (the 1x1
// convolution as a GEMM)".
std::string describeAlgorithm(VendorAlgorithm algorithm);

class PreparedVendorCall {
public:
  // Builds the call's descriptors for the module buffers at `addresses`
  // (GeneratedPlan numbering), writing to `staged`. A convolution without a
  // chosen `algorithm` has cuDNN time every algorithm that fits `search` on
  // these buffers and takes the fastest (so the buffers are read and
  // `staged` written); candidates() keeps its ranking. Raises Device when
  // the library refuses the call or has no algorithm for it.
  PreparedVendorCall(const VendorCall& call, const std::vector<void*>& addresses, void* staged,
                     VendorWorkspace search, VendorAlgorithm algorithm = {});
  ~PreparedVendorCall();
  PreparedVendorCall(const PreparedVendorCall&) = delete;
  PreparedVendorCall& operator=(const PreparedVendorCall&) = delete;

  // `workspace` holds at least workspaceBytes().
  void enqueue(cudaStream_t stream, VendorWorkspace workspace);
  const VendorAlgorithm& algorithm() const { return algorithm_; }
  size_t workspaceBytes() const { return workspaceBytes_; }
  // The algorithms cuDNN's search ranked fastest, its first `count` that ran
  // within the workspace, in its order: that order comes from one run of
  // each and has put an algorithm several times slower than the next first
  // (docs/benchmarks.md), so a caller that can time them should. Then, for
  // a convolution that is a GEMM (convolutionAsGemm), kAsGemm. Just the
  // algorithm in use for a GEMM, or where nothing was searched.
  std::vector<VendorAlgorithm> candidates(size_t count) const;
  // Switches a convolution to `algorithm` (one of candidates()).
  void use(VendorAlgorithm algorithm);

private:
  struct Conv;

  VendorCall call_;
  void* staged_ = nullptr;
  const void* a_ = nullptr; // a convolution's x
  const void* b_ = nullptr; // and its filters
  // The call as a GEMM and its operands: the call itself, or the
  // convolution's convolutionAsGemm.
  std::optional<VendorGemm> gemm_;
  const void* gemmA_ = nullptr;
  const void* gemmB_ = nullptr;
  VendorAlgorithm algorithm_;
  std::vector<VendorAlgorithm> ranked_; // cuDNN's search, fastest first
  size_t workspaceBytes_ = 0;
  std::unique_ptr<Conv> conv_; // cuDNN's descriptors, for a convolution
};

} // namespace tcx::gpu
