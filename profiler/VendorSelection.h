#pragma once
// Which form runs a plan kernel that has a vendor alternative
// (core/codegen/VendorCall.h): its generated code or the library call plus
// the epilogue kernel, whichever measured faster (the library by a margin,
// preferVendor) on this device, for this shape, with these operands'
// strides and alignment. Measuring takes a few
// milliseconds a kernel (and cuDNN's algorithm search more), so a choice is
// kept on disk under a key of everything it depends on, beside the compiled
// cubins (CompileCache.h), and a second run of the same model measures
// nothing.

#include "profiler/KernelTimer.h"
#include "profiler/VendorCalls.h"

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>

namespace tcx::gpu {

struct VendorChoice {
  bool vendor = false;
  VendorAlgorithm algorithm; // a convolution's: cuDNN's, or kAsGemm
  double generatedUs = 0;    // medians as measured (also when read from the cache)
  double vendorUs = 0;
  bool cached = false;
};

class VendorChoiceCache {
public:
  // CompileCache::cacheRoot()/vendor, or memory only when there is no root.
  VendorChoiceCache();

  std::optional<VendorChoice> find(const std::string& key);
  // A cache that cannot be written costs only a later measurement.
  void store(const std::string& key, const VendorChoice& choice);

private:
  std::string pathFor(const std::string& key) const;
  std::string dir_;
};

// What a selection times with: repetitions enough for a stable median of a
// kernel of tens of microseconds, the L2 flushed before each.
TimerOptions vendorSelectionTimer();

// How many of cuDNN's ranked algorithms a choice times itself
// (PreparedVendorCall::candidates), besides a 1x1 convolution as a GEMM.
constexpr size_t kTimedAlgorithms = 3;

// Whether a library call that took `vendorUs` replaces generated code that
// took `generatedUs`: only when faster by more than kVendorMargin. Within
// it the generated kernel stays. It is one launch, and its time in the plan's
// graph is what it took alone. A library call's need not be: cuDNN's FFT for
// DenseNet-121's 3x3 128->32 at 56x56 (32 images, H200) took 170.0 us alone
// against 173.6 generated, and 255.8 to 265.8 us in the plan
// (docs/benchmarks.md).
constexpr double kVendorMargin = 0.05;
bool preferVendor(double vendorUs, double generatedUs);

// Times one run of each form (each enqueues its launches on the stream it
// is given) from the first kernel's start to the last one's end: the
// generated code, and the vendor call under each of `call`'s candidates.
// Keeps the vendor call, on its fastest algorithm (which `call` is left on
// and the choice records), where preferVendor says so.
VendorChoice measureVendorChoice(KernelTimer& timer, const std::function<void(cudaStream_t)>& generated,
                                 const std::function<void(cudaStream_t)>& vendor, PreparedVendorCall& call);

} // namespace tcx::gpu
