// The GPU backend in a build without the CUDA toolkit: every entry exists
// and says why it cannot run, so the front ends stay in estimated mode.
#include "GpuBackend.h"

#include "support/Error.h"

namespace tcx::backend {

namespace {

constexpr const char* kNoToolkit =
    "this build has no CUDA toolkit: latencies are estimated with the cost model";

[[noreturn]] void noGpuBackend() { raise(ErrorKind::Unsupported, "{}", kNoToolkit); }

} // namespace

GpuStatus gpuStatus() { return {.available = false, .name = {}, .describe = kNoToolkit}; }
void requireGpu() { noGpuBackend(); }

std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession&, PlanOptions) { noGpuBackend(); }

struct PlanProfiler::Impl {};
PlanProfiler::PlanProfiler() { noGpuBackend(); }
PlanProfiler::~PlanProfiler() = default;
PlanProfile PlanProfiler::profile(const std::string&, const ExecPlan&, const PlanLatency&,
                                  const std::map<std::string, Tensor>&, const ExecutionResult*,
                                  const ProfileSettings&) {
  noGpuBackend();
}

std::optional<MeasuredLatency> measurePlans(const VtcSession&, const MeasureControl&) { noGpuBackend(); }
void measureSession(VtcSession&, int) { noGpuBackend(); }

} // namespace tcx::backend
