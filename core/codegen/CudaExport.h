#pragma once
// `tcx export`: a plan as a standalone CUDA program. The directory gets the
// generated module (plan.cu, the very source tcx compiles with NVRTC), the
// kernel library headers it includes, a host driver (main.cu) that lays
// out the plan's buffers, uploads its constants, fills the inputs with
// deterministic values, runs every launch in order and times the run with
// cudaEvents, and a CMakeLists.txt that builds it with nvcc.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"

#include <string>
#include <utility>
#include <vector>

namespace tcx {

struct ExportFile {
  std::string path; // relative to the export directory
  std::string contents;
};

// The files of the export. `headers` are the kernel library's (name as
// included, e.g. "tcx/gemm.cuh", and text).
std::vector<ExportFile> cudaExportFiles(const ExecPlan& plan, const GeneratedPlan& code,
                                        const std::vector<std::pair<std::string, std::string>>& headers,
                                        const std::string& arch);

// Writes the files under `dir` (created if missing), each atomically.
void writeExport(const std::string& dir, const std::vector<ExportFile>& files);

} // namespace tcx
