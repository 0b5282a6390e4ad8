#pragma once
// A plan's generated module, compiled on every core and loaded. NVRTC
// compiles one program on one thread, and the module of a real model (a few
// hundred kernels) takes tens of seconds that way. So the module compiles in
// parts: the same source with a different set of plan kernels kept in each
// (GeneratedPlan.h's guards), balanced by their compile cost, each part
// on its own thread and cached on its own (CompileCache.h), each loaded as
// its own library. Line numbers in NVRTC's messages stay the module's.

#include "codegen/GeneratedPlan.h"
#include "profiler/CudaModule.h"
#include "profiler/Nvrtc.h"

#include <memory>
#include <vector>

namespace tcx::gpu {

struct PlanCompile {
  double compileMs = 0; // wall time of the whole compile, cache lookups included
  size_t parts = 0;
  size_t cached = 0;    // parts found in the cache (memory or disk)
  double slowestPartMs = 0; // the part that took longest, lookup and compile
};

class PlanModules {
public:
  // Compiles `code` in at most `maxParts` parts (0: one per hardware
  // thread) and looks up every launch's kernel. Raises what
  // NvrtcCompiler::compile raises, for the first part (in kernel order) that
  // failed.
  PlanModules(const GeneratedPlan& code, NvrtcCompiler& compiler, unsigned maxParts = 0);

  // Launches launch `i` of the plan with `args`.
  void launch(size_t i, void** args, cudaStream_t stream, LaunchOrder order);
  // Launches the epilogue kernel of vendor alternative `a`
  // (GeneratedPlan::vendorAlternatives) with `args`.
  void launchEpilogue(size_t a, void** args, cudaStream_t stream, LaunchOrder order);
  // Launches the prelude of vendor alternative `a`, which has one.
  void launchPrelude(size_t a, void** args, cudaStream_t stream, LaunchOrder order);

  const PlanCompile& compiled() const { return compiled_; }

  // The plan kernels of each part (indices into GeneratedPlan::kernelSpans):
  // the costliest first (GeneratedPlan::compileCost) into the part with the
  // least cost so far.
  static std::vector<std::vector<int>> partition(const GeneratedPlan& code, unsigned parts);

private:
  const GeneratedPlan& code_;
  std::vector<std::unique_ptr<CudaModule>> modules_; // per part
  struct Entry {
    CudaModule* module = nullptr;
    cudaKernel_t kernel = nullptr;
  };
  Entry entry(const GeneratedLaunch& l, const std::vector<int>& partOf) const;
  static void launchAt(const Entry& entry, const GeneratedLaunch& l, void** args, cudaStream_t stream,
                       LaunchOrder order);

  std::vector<Entry> launches_;  // per launch
  std::vector<Entry> epilogues_; // per vendor alternative
  std::vector<Entry> preludes_;  // per vendor alternative; empty where it has none
  PlanCompile compiled_;
};

} // namespace tcx::gpu
