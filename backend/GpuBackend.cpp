// The GPU backend on the CUDA toolkit: plans compiled with NVRTC and timed
// with CUPTI (profiler/), per plan kernel, as VTC's Figures 2 and 10 break
// latency down (data movement vs compute).
#include "GpuBackend.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "profiler/ProfileOracle.h"
#include "profiler/Trace.h"

#include <fmt/format.h>

namespace tcx::backend {

namespace {

// The largest error over every output, on each output's scale.
// Plan kernel times from the launches' medians, and the latency in seconds.
void sumKernelTimes(PlanProfile& p, const ExecPlan& plan, const gpu::GpuPlan& onGpu, const gpu::TimingResult& t,
                    const PlanLatency& estimates) {
  for (const PlanKernel& k : plan.kernels) p.kernels.push_back({k.name, k.isDataMovement(), 0, 0});
  for (size_t i = 0; i < t.launches.size(); ++i) {
    KernelTime& k = p.kernels[onGpu.code().launches[i].planKernel];
    ++k.launches;
    k.us += t.launches[i].stats.medianUs;
  }
  for (const KernelTime& k : p.kernels) (k.dataMovement ? p.dataMovementUs : p.computeUs) += k.us;
  p.latency.seconds = p.totalUs * 1e-6;
  p.latency.dataMovementSeconds = p.dataMovementUs * 1e-6;
  p.latency.computeSeconds = p.computeUs * 1e-6;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    KernelEstimate e = estimates.perKernel[i];
    e.seconds = p.kernels[i].us * 1e-6;
    p.latency.perKernel.push_back(e);
  }
}

} // namespace

GpuStatus gpuStatus() {
  const gpu::GpuInfo& info = gpu::gpuInfo();
  if (!info.available) return {.available = false, .name = {}, .describe = "no CUDA device: " + info.reason};
  return {.available = true, .name = info.name, .describe = info.describe()};
}

void requireGpu() { gpu::requireGpu(); }

std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession& session, PlanOptions options) {
  return std::make_unique<gpu::ProfileOracle>(session.kernels(), session.vtog(), options);
}

struct PlanProfiler::Impl {
  gpu::NvrtcCompiler compiler;
};

PlanProfiler::PlanProfiler() {
  gpu::requireGpu();
  impl_ = std::make_unique<Impl>();
}

PlanProfiler::~PlanProfiler() = default;

PlanProfile PlanProfiler::profile(const std::string& label, const ExecPlan& plan, const PlanLatency& estimates,
                                  const std::map<std::string, Tensor>& inputs, const ExecutionResult* reference,
                                  const ProfileSettings& settings) {
  PlanProfile p;
  p.label = label;
  gpu::GpuPlan onGpu(plan, generateCuda(plan, {.smCount = gpu::gpuInfo().smCount}), impl_->compiler);
  p.compileMs = onGpu.compiled().compileMs;
  p.extraBytes = plan.arenaBytes;
  for (const PlanBuffer& b : plan.buffers)
    if (b.kind == PlanBuffer::Kind::Output && b.aliasOf < 0) p.extraBytes += b.bytes;
  for (int64_t bytes : onGpu.code().scratchBytes) p.extraBytes += bytes;
  onGpu.setInputs(inputs);
  if (reference) {
    onGpu.poison();
    p.check = checkGpuOutputs(plan.kernelGraph->graph(), onGpu.run(), reference->outputs);
    onGpu.setInputs(inputs); // a plan may update its inputs in place
  }
  gpu::TimingResult t = onGpu.time({.repetitions = settings.repetitions});
  p.timingSource = t.source;
  p.totalUs = t.total.medianUs;
  sumKernelTimes(p, plan, onGpu, t, estimates);
  if (!settings.tracePath.empty()) gpu::writeChromeTrace(settings.tracePath, t.lastRun, settings.traceTitle);
  return p;
}

std::optional<MeasuredLatency> measurePlans(const VtcSession& session, const MeasureControl& control) {
  auto cancelled = [&] { return control.cancel && control.cancel->load(); };
  auto report = [&](size_t done, std::string_view what) {
    if (control.progress) control.progress(done, 2, what);
  };
  PlanProfiler profiler;
  auto inputs = randomInputs(session.graph(), 1);
  const ProfileSettings settings{.repetitions = control.repetitions};
  report(0, "baseline plan");
  if (cancelled()) return std::nullopt;
  PlanProfile before =
      profiler.profile("baseline", session.baselinePlan(), session.baselineLatency(), inputs, nullptr, settings);
  report(1, "optimised plan");
  if (cancelled()) return std::nullopt;
  PlanProfile after =
      profiler.profile("greedy", session.optimizedPlan(), session.optimizedLatency(), inputs, nullptr, settings);
  report(2, "done");
  return MeasuredLatency{std::move(before.latency), std::move(after.latency), gpu::gpuInfo().name};
}

void measureSession(VtcSession& session, int repetitions) {
  MeasuredLatency m = *measurePlans(session, {.repetitions = repetitions});
  session.setMeasuredLatency(std::move(m.baseline), std::move(m.optimized), std::move(m.device));
}

} // namespace tcx::backend
