#pragma once
// CUDA code generation for an ExecPlan (VTC section 5): one source module
// whose kernels read and write every tensor through the plan's mapping
// functions, constants folded in. Compute kernels matching a library
// pattern (GEMM, decode attention) instantiate the templates of
// kernels/include/tcx with emitted accessors and epilogues; every other
// kernel is lowered generically (codegen/ValueCode.h). Residual
// data-movement kernels copy the regions their op still owns.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"

#include <string_view>

namespace tcx {

// The device the launch configurations are sized for.
struct CodegenTarget {
  int smCount = 132; // H100 SXM and H200
  // Threads a multiprocessor holds at once (2048 on sm_80 and later; the
  // profiler reads its device's): how many elements an element-wise kernel
  // gives each thread (elementsPerThread in codegen/KernelText.h).
  int threadsPerSm = 2048;
  // Compiled for sm_90a (Hopper's arch-specific features): float GEMMs take
  // gemm_wgmma_f32 (planGemm in kernels/include/tcx/launch.h).
  bool wgmma = true;
};

// The target for code compiled for `arch` ("sm_90a", "sm_90", ...) on
// `smCount` multiprocessors: wgmma only for sm_90a, Hopper's arch-specific
// target (plain sm_90 and later architectures have no wgmma).
CodegenTarget codegenTargetFor(std::string_view arch, int smCount, int threadsPerSm = 2048);

// Raises Unsupported naming the node when an op has no CUDA form.
GeneratedPlan generateCuda(const ExecPlan& plan, const CodegenTarget& target = {});

} // namespace tcx
