#pragma once
// What CUDA code generation produces for an ExecPlan: one source module and
// the launches that run the plan, in order. The module's buffers are the
// plan's buffers first, then the scratch buffers code generation added
// (intermediates inside a fused kernel, library kernels' workspaces). Every
// kernel takes one argument, `struct Buffers { void* p[bufferSlots]; }`: the
// addresses of the buffers its code names, in slots that each launch binds
// (GeneratedLaunch::buffers) to a buffer and a byte offset into it. So plan
// kernels whose code differs only in the buffers it reads and writes, or in
// where in them -- the layers of an encoder, a DenseNet layer's slice of its
// block's concatenation -- share one compiled kernel. The profiler compiles the source with NVRTC and launches
// by entry name; the exporter writes it out.

#include "codegen/GeneratedLaunch.h"
#include "codegen/VendorCall.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcx {

// Lines [first, last] (1-based, inclusive) of the source that a plan kernel's
// code occupies, so the explorer can show and highlight one kernel's code.
struct SourceSpan {
  int firstLine = 0;
  int lastLine = 0;
  bool empty() const { return firstLine == 0; }
};

// Each plan kernel's code is guarded by
//   #if !defined(TCX_PART) || defined(TCX_KERNEL_<k>)
// so the source compiles whole, or in parts that keep only some kernels
// (defining TCX_PART and each kept kernel's TCX_KERNEL_<k>), which NVRTC
// compiles in parallel (profiler/PlanModules.h).
struct GeneratedPlan {
  std::string source;
  std::vector<SourceSpan> kernelSpans; // parallel to ExecPlan::kernels
  // Parallel to ExecPlan::kernels: the plan kernel whose code each runs,
  // itself or an earlier kernel with the same code (whose span it shares).
  std::vector<int> codeKernel;
  // Parallel to ExecPlan::kernels: a stand-in for how long NVRTC takes over
  // each kernel's own code, in lines (ModuleBuilder weighs the library
  // templates it instantiates); 0 for a kernel without code of its own.
  std::vector<int> compileCost;
  size_t bufferSlots = 1; // the length of Buffers::p
  std::vector<GeneratedLaunch> launches;
  size_t numPlanBuffers = 0;
  std::vector<int64_t> scratchBytes; // buffer numPlanBuffers + i
  // Scratch buffers that must be zero when allocated (split-K arrival
  // counters, which every run leaves at zero again).
  std::vector<bool> scratchZeroed;
  // What each scratch buffer holds, for readers of the code and the export.
  std::vector<std::string> scratchNames;
  // Plan kernels a vendor library call can stand in for (VendorCall.h), in
  // plan kernel order; the scratch buffers they stage their results and
  // their preludes' inputs in are allocated only where one is chosen.
  std::vector<VendorAlternative> vendorAlternatives;

  size_t numBuffers() const { return numPlanBuffers + scratchBytes.size(); }
  // The scratch buffer every vendor alternative stages its result in, or -1.
  int vendorStaging() const { return vendorAlternatives.empty() ? -1 : vendorAlternatives.front().staging; }
  // The scratch buffer every alternative's prelude writes the call's input to, or -1.
  int vendorInput() const {
    for (const VendorAlternative& a : vendorAlternatives)
      if (a.prelude) return a.input;
    return -1;
  }
  // Whether scratch buffer `buffer` is one of the two above.
  bool forVendorCalls(int buffer) const { return buffer == vendorStaging() || buffer == vendorInput(); }
  // The source lines `span` covers, newlines included.
  std::string_view spanText(const SourceSpan& span) const {
    if (span.empty()) return {};
    const std::string_view text(source);
    size_t begin = 0;
    for (int line = 1; line < span.firstLine; ++line) begin = text.find('\n', begin) + 1;
    size_t end = begin;
    for (int line = span.firstLine; line <= span.lastLine; ++line) {
      end = text.find('\n', end);
      if (end == std::string_view::npos) return text.substr(begin);
      ++end;
    }
    return text.substr(begin, end - begin);
  }
};

} // namespace tcx
