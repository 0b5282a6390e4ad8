#include "backend/KernelExport.h"

#include "KernelLibrary.h"
#include "codegen/CudaCodegen.h"
#include "codegen/CudaExport.h"

namespace tcx::backend {

KernelExportSummary exportKernels(const ExecPlan& plan, const std::string& dir, const KernelExportOptions& options) {
  const GeneratedPlan code = generateCuda(plan, codegenTargetFor(options.arch, options.smCount));
  std::vector<std::pair<std::string, std::string>> headers;
  for (const KernelHeader& h : kernelLibraryHeaders()) headers.emplace_back(h.name, h.source);
  const std::vector<ExportFile> files = cudaExportFiles(plan, code, headers, options.arch);
  writeExport(dir, files);
  return {code.launches.size(), files.size()};
}

} // namespace tcx::backend
