// GpuRunner.h in a build without the CUDA toolkit.
#include "GpuRunner.h"

#include "support/Error.h"

namespace tcx::conformance {

std::optional<std::string> gpuUnavailable() { return "this build has no CUDA toolkit (no GPU backend)"; }

std::vector<EngineOutputs> runPlansOnGpu(Graph, const std::map<std::string, Tensor>&) {
  TCX_CHECK(false, ErrorKind::Unsupported, "{}", *gpuUnavailable());
  return {};
}

} // namespace tcx::conformance
