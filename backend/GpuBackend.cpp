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

#include <chrono>

namespace tcx::backend {

namespace {

// The largest error over every output, on each output's scale.
// Plan kernel times from the launches' medians, and the latency in seconds.
void sumKernelTimes(PlanProfile& p, const ExecPlan& plan, const gpu::GpuPlan& onGpu, const gpu::TimingResult& t,
                    const PlanLatency& estimates) {
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    KernelTime& k = p.kernels.emplace_back();
    k.name = plan.kernels[i].name;
    k.dataMovement = plan.kernels[i].isDataMovement();
    if (std::optional<gpu::VendorChoice> c = onGpu.vendorChoice(static_cast<int>(i)))
      k.choice = KernelTime::VendorTiming{c->vendor, c->generatedUs, c->vendorUs, c->cached,
                                          gpu::describeAlgorithm(c->algorithm)};
  }
  const std::vector<gpu::GpuPlan::KernelOwner> owners = onGpu.owners(t.launches);
  for (size_t i = 0; i < t.launches.size(); ++i) {
    KernelTime& k = p.kernels[owners[i].planKernel];
    ++k.launches;
    k.us += t.launches[i].stats.medianUs;
    k.forms.push_back(owners[i].what);
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
  try {
    return profileOrRaise(label, plan, estimates, inputs, reference, settings);
  } catch (const Error& e) {
    throw e.withContext(fmt::format("the {} plan of '{}'", label, plan.kernelGraph->graph().name));
  }
}

PlanProfile PlanProfiler::profileOrRaise(const std::string& label, const ExecPlan& plan, const PlanLatency& estimates,
                                         const std::map<std::string, Tensor>& inputs,
                                         const ExecutionResult* reference, const ProfileSettings& settings) {
  PlanProfile p;
  p.label = label;
  gpu::GpuPlan onGpu(plan, generateCuda(plan, gpu::gpuInfo().codegenTarget()), impl_->compiler);
  p.compileMs = onGpu.compiled().compileMs;
  p.compileParts = onGpu.compiled().parts;
  p.compileCached = onGpu.compiled().cached;
  p.compileSlowestPartMs = onGpu.compiled().slowestPartMs;
  p.extraBytes = plan.arenaBytes;
  for (const PlanBuffer& b : plan.buffers)
    if (b.kind == PlanBuffer::Kind::Output && b.aliasOf < 0) p.extraBytes += b.bytes;
  onGpu.setInputs(inputs);
  const auto choiceStart = std::chrono::steady_clock::now();
  onGpu.chooseVendorCalls(settings.vendor);
  p.vendorChoiceMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - choiceStart).count();
  p.vendorAlternatives = onGpu.code().vendorAlternatives.size();
  p.vendorCalls = onGpu.vendorCallsChosen();
  p.extraBytes += onGpu.scratchBytes();
  onGpu.setInputs(inputs); // choosing ran the plan
  // One run with a launch at a time before timing, so that a kernel that
  // faults is named (GpuPlan::run); the check is of a run launched as the
  // timed ones are.
  onGpu.run();
  onGpu.setLaunchOrder(settings.dependentLaunch ? gpu::LaunchOrder::Dependent : gpu::LaunchOrder::Serial);
  p.dependentLaunch = settings.dependentLaunch && gpu::gpuInfo().dependentLaunch();
  if (reference) {
    onGpu.setInputs(inputs); // a plan may update its inputs in place
    onGpu.poison();
    p.check = checkGpuOutputs(plan.kernelGraph->graph(), onGpu.runEnqueued(), reference->outputs);
  }
  onGpu.setInputs(inputs);
  gpu::TimingResult t = onGpu.time({.repetitions = settings.repetitions, .asGraph = settings.asGraph, .wall = true});
  p.timingSource = t.source;
  p.totalUs = t.total.medianUs;
  p.wallUs = t.wall.medianUs;
  p.wallSpreadUs = t.wall.spreadUs();
  p.graph = t.graph;
  sumKernelTimes(p, plan, onGpu, t, estimates);
  if (!settings.tracePath.empty()) gpu::writeChromeTrace(settings.tracePath, t.lastRun, settings.traceTitle);
  return p;
}

std::optional<MeasuredLatency> measurePlans(const VtcSession& session, const MeasureControl& control) {
  auto cancelled = [&] { return control.cancel && control.cancel->load(); };
  const size_t steps = control.check ? 3 : 2;
  size_t done = 0;
  auto report = [&](std::string_view what) {
    if (control.progress) control.progress(done++, steps, what);
  };
  PlanProfiler profiler;
  auto inputs = randomInputs(session.graph(), 1);
  std::optional<ExecutionResult> reference;
  if (control.check) {
    report("CPU reference");
    if (cancelled()) return std::nullopt;
    reference = ReferenceExecutor(session.graph()).run(inputs);
  }
  const ExecutionResult* checkAgainst = reference ? &*reference : nullptr;
  const ProfileSettings settings{.repetitions = control.repetitions};
  report("baseline plan");
  if (cancelled()) return std::nullopt;
  PlanProfile before =
      profiler.profile("baseline", session.baselinePlan(), session.baselineLatency(), inputs, checkAgainst, settings);
  report("optimised plan");
  if (cancelled()) return std::nullopt;
  PlanProfile after =
      profiler.profile("greedy", session.optimizedPlan(), session.optimizedLatency(), inputs, checkAgainst, settings);
  report("done");
  return MeasuredLatency{std::move(before.latency), std::move(after.latency), gpu::gpuInfo().name, before.check,
                         after.check};
}

void measureSession(VtcSession& session, int repetitions) {
  MeasuredLatency m = *measurePlans(session, {.repetitions = repetitions, .check = false});
  session.setMeasuredLatency(std::move(m.baseline), std::move(m.optimized), std::move(m.device));
}

} // namespace tcx::backend
