// tcx profile MODEL: runs the baseline and the optimised plan on the GPU,
// checks them against the CPU reference, and times every kernel with CUPTI:
// the latency breakdown of VTC's Figures 2 and 10 (data movement vs compute,
// per kernel, baseline vs optimised).
#include "Commands.h"
#include "EdgeConstraintOptions.h"
#include "Format.h"
#include "GpuBackend.h"
#include "ModelOptions.h"

#include "codegen/CudaCodegen.h"
#include "cost/GpuPreset.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"
#include "profiler/GpuDevice.h"
#include "profiler/GpuPlan.h"
#include "profiler/ProfileOracle.h"
#include "report/VtcReport.h"
#include "profiler/Trace.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct ProfileOptions {
  ModelOptions model;
  EdgeConstraintSpecs constraints;
  std::string strategy = "both";
  int repetitions = 50;
  bool check = false;
  bool noDonate = false;
  bool json = false;
  std::string trace;
  std::string report;
  std::string commandLine;
};

// One plan kernel's time: the sum of its launches' medians.
struct KernelTime {
  std::string name;
  bool dataMovement = false;
  int launches = 0;
  double us = 0;
};

struct PlanProfile {
  std::string label;
  std::vector<KernelTime> kernels;
  double totalUs = 0; // first kernel's start to last kernel's end, median
  double dataMovementUs = 0, computeUs = 0;
  double compileMs = 0;
  int64_t extraBytes = 0; // device memory beyond inputs and donated outputs: outputs, intermediates, workspaces
  std::string timingSource;
  std::string check = "not checked";
  PlanLatency latency; // per plan kernel, for the session and the report
};

// The largest error over every output, on each output's scale.
std::string compareToReference(const std::vector<Tensor>& got, const ExecutionResult& ref) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, scaledError(got[i], ref.outputs[i]));
  return fmt::format("max error {:.3g} of the output's scale", worst);
}

PlanProfile profilePlan(const std::string& label, const ExecPlan& plan, const PlanLatency& estimates,
                        const std::map<std::string, Tensor>& inputs, const ExecutionResult* reference,
                        const ProfileOptions& opts, gpu::NvrtcCompiler& compiler) {
  PlanProfile p;
  p.label = label;
  gpu::GpuPlan onGpu(plan, generateCuda(plan, {.smCount = gpu::gpuInfo().smCount}), compiler);
  p.compileMs = onGpu.compiled().compileMs;
  p.extraBytes = plan.arenaBytes;
  for (const PlanBuffer& b : plan.buffers)
    if (b.kind == PlanBuffer::Kind::Output && b.aliasOf < 0) p.extraBytes += b.bytes;
  for (int64_t bytes : onGpu.code().scratchBytes) p.extraBytes += bytes;
  onGpu.setInputs(inputs);
  if (reference) {
    onGpu.poison();
    p.check = compareToReference(onGpu.run(), *reference);
    onGpu.setInputs(inputs); // a plan may update its inputs in place
  }
  gpu::TimingResult t = onGpu.time({.repetitions = opts.repetitions});
  p.timingSource = t.source;
  p.totalUs = t.total.medianUs;
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
  if (!opts.trace.empty() && (label != "baseline" || opts.strategy == "baseline"))
    gpu::writeChromeTrace(opts.trace, t.lastRun, fmt::format("tcx: {} ({})", plan.kernelGraph->graph().name, label));
  return p;
}

nlohmann::json toJson(const PlanProfile& p) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelTime& k : p.kernels)
    kernels.push_back({{"name", k.name},
                       {"category", k.dataMovement ? "data_movement" : "compute"},
                       {"launches", k.launches},
                       {"us", k.us}});
  return {{"strategy", p.label},          {"latency_us", p.totalUs},       {"data_movement_us", p.dataMovementUs},
          {"compute_us", p.computeUs},    {"compile_ms", p.compileMs},     {"timing_source", p.timingSource},
          {"extra_memory_bytes", p.extraBytes},
          {"check", p.check},             {"kernels", kernels}};
}

void printText(const PlanProfile& p) {
  fmt::print("\n{} plan: {:.1f} us end to end ({} kernels; data movement {:.1f} us, compute {:.1f} us), extra memory "
             "{}, {}\n",
             p.label, p.totalUs, p.kernels.size(), p.dataMovementUs, p.computeUs, formatBytes(p.extraBytes), p.check);
  for (const KernelTime& k : p.kernels)
    fmt::print("  {:>10.1f} us  {:<13} {:>2} launch{} {}\n", k.us, k.dataMovement ? "data movement" : "compute",
               k.launches, k.launches == 1 ? " " : "es", k.name);
}

int profile(const ProfileOptions& opts) {
  gpu::requireGpu();
  const gpu::GpuInfo& info = gpu::gpuInfo();
  VtcSession session(opts.model.load(), defaultGpuPreset(), PlanOptions{.donateInputs = !opts.noDonate});
  session.select(opts.constraints);
  auto inputs = randomInputs(session.graph(), 1);
  std::optional<ExecutionResult> reference;
  if (opts.check) reference = ReferenceExecutor(session.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  std::vector<PlanProfile> profiles;
  if (opts.strategy != "greedy")
    profiles.push_back(profilePlan("baseline", session.baselinePlan(), session.baselineLatency(), inputs,
                                   reference ? &*reference : nullptr, opts, compiler));
  if (opts.strategy != "baseline")
    profiles.push_back(profilePlan("greedy", session.optimizedPlan(), session.optimizedLatency(), inputs,
                                   reference ? &*reference : nullptr, opts, compiler));
  if (profiles.size() == 2) {
    session.setMeasuredLatency(profiles[0].latency, profiles[1].latency, info.name);
    if (!opts.report.empty()) writeVtcReport(opts.report, session, {opts.model.path, opts.commandLine});
  }
  if (opts.json) {
    nlohmann::json j{{"model", opts.model.path}, {"device", info.describe()}, {"latency_source", "measured"}};
    for (const PlanProfile& p : profiles) j["plans"].push_back(toJson(p));
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("model     {} (graph '{}')\ndevice    {}\ntiming    {}, median of {} runs, L2 flushed between runs\n",
             opts.model.path, session.graph().name, info.describe(), profiles.front().timingSource, opts.repetitions);
  for (const PlanProfile& p : profiles) printText(p);
  if (profiles.size() == 2)
    fmt::print("\nspeed-up  {:.2f}x (measured)\n", profiles[0].totalUs / profiles[1].totalUs);
  if (!opts.trace.empty()) fmt::print("trace written to {}\n", opts.trace);
  if (!opts.report.empty()) fmt::print("report written to {}\n", opts.report);
  return 0;
}

} // namespace

std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession& session, PlanOptions options) {
  return std::make_unique<gpu::ProfileOracle>(session.kernels(), session.vtog(), options);
}

void measureSession(VtcSession& session, int repetitions) {
  ProfileOptions opts;
  opts.repetitions = repetitions;
  auto inputs = randomInputs(session.graph(), 1);
  gpu::NvrtcCompiler compiler;
  PlanProfile before = profilePlan("baseline", session.baselinePlan(), session.baselineLatency(), inputs, nullptr,
                                   opts, compiler);
  PlanProfile after = profilePlan("greedy", session.optimizedPlan(), session.optimizedLatency(), inputs, nullptr, opts,
                                  compiler);
  session.setMeasuredLatency(before.latency, after.latency, gpu::gpuInfo().name);
}

void addProfileCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto opts = std::make_shared<ProfileOptions>();
  opts->commandLine = std::move(commandLine);
  CLI::App* cmd = app.add_subcommand("profile", "Run the baseline and optimised plans on the GPU and time every kernel");
  opts->model.addTo(*cmd);
  cmd->add_option("--strategy", opts->strategy, "Which plans: baseline, greedy or both")
      ->check(CLI::IsMember({"baseline", "greedy", "both"}));
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->add_option("--reps", opts->repetitions, "Timed repetitions (median reported)")->check(CLI::PositiveNumber);
  cmd->add_flag("--check", opts->check, "Check the GPU outputs against the CPU reference executor");
  cmd->add_flag("--no-donate", opts->noDonate, "Never update a graph input in place (a KV cache) for its output");
  cmd->add_option("--trace", opts->trace, "Also write a Chrome/Perfetto trace of one run to FILE.json");
  cmd->add_option("--report", opts->report, "Write the SQLite report with the measured latencies to FILE.db");
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of text");
  cmd->callback([opts, &action] { action = [opts] { return profile(*opts); }; });
}

void addTraceCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ProfileOptions>();
  opts->strategy = "greedy";
  opts->repetitions = 5;
  CLI::App* cmd = app.add_subcommand("trace", "Write a Chrome/Perfetto trace (ui.perfetto.dev) of one run on the GPU");
  opts->model.addTo(*cmd);
  cmd->add_option("--out", opts->trace, "Trace file to write (JSON)")->required();
  cmd->add_option("--strategy", opts->strategy, "Which plan: greedy (optimised) or baseline")
      ->check(CLI::IsMember({"baseline", "greedy"}));
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->callback([opts, &action] { action = [opts] { return profile(*opts); }; });
}

} // namespace tcx::cli
