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

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace tcx {

// What a launch binds to one slot of its kernel's argument.
struct BufferBinding {
  int buffer = 0;         // a module buffer
  int64_t byteOffset = 0; // added to its address
  auto operator<=>(const BufferBinding&) const = default;
};

struct GeneratedLaunch {
  int planKernel = 0;      // index into ExecPlan::kernels
  std::string entry;       // extern "C" kernel name
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{256, 1, 1};
  unsigned sharedBytes = 0;
  std::string what; // for reports: "stage MatMul '/attn/MatMul'", "store /x", "gemm", ...
  // What each slot of the kernel's argument holds: its code's b.p[s] is
  // the address of buffers[s].buffer plus buffers[s].byteOffset.
  std::vector<BufferBinding> buffers;
};

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

  size_t numBuffers() const { return numPlanBuffers + scratchBytes.size(); }
};

} // namespace tcx
