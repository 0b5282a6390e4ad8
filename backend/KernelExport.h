#pragma once
// Export of a plan's kernels as a standalone CUDA project (codegen/CudaExport.h
// with the kernel library's headers), as both front ends offer it: `tcx export`
// and the explorer's File > Export kernels.

#include "plan/ExecPlan.h"

#include <string>

namespace tcx::backend {

struct KernelExportOptions {
  std::string arch = "sm_90a"; // sm_90a: float GEMMs on wgmma (CodegenTarget)
  int smCount = 132; // the GPU the launch configurations are planned for
};

struct KernelExportSummary {
  size_t launches = 0;
  size_t files = 0;
};

// Writes the project into `dir` (created if missing); raises tcx::Error.
KernelExportSummary exportKernels(const ExecPlan& plan, const std::string& dir, const KernelExportOptions& options = {});

} // namespace tcx::backend
