// tcx profile MODEL: runs the baseline and the optimised plan on the GPU,
// checks them against the CPU reference, and times every kernel with CUPTI:
// the latency breakdown of VTC's Figures 2 and 10 (data movement vs compute,
// per kernel, baseline vs optimised). The GPU work is the backend's
// (app/backend); in a build without CUDA it says why it cannot run.
#include "Commands.h"
#include "ExitCode.h"
#include "EdgeConstraintOptions.h"
#include "PlanFlags.h"
#include "Format.h"
#include "ModelOptions.h"

#include "backend/GpuBackend.h"
#include "target/GpuPreset.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"
#include "report/VtcReport.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct ProfileOptions {
  ModelOptions model;
  EdgeConstraintSpecs constraints;
  std::string strategy = "both";
  std::string vendor = "measure";
  int repetitions = 50;
  bool check = false;
  bool serialLaunches = false;
  PlanFlags plan;
  bool json = false;
  std::string trace;
  std::string report;
  std::string commandLine;
};

// Times one plan; the trace (when asked for) is of the plan the command is about.
backend::PlanProfile profilePlan(backend::PlanProfiler& profiler, const std::string& label, const ExecPlan& plan,
                        const PlanLatency& estimates, const std::map<std::string, Tensor>& inputs,
                        const ExecutionResult* reference, const ProfileOptions& opts) {
  backend::ProfileSettings settings{.repetitions = opts.repetitions, .dependentLaunch = !opts.serialLaunches};
  settings.vendor = opts.vendor == "never"    ? VendorPolicy::Never
                    : opts.vendor == "always" ? VendorPolicy::Always
                                              : VendorPolicy::Measure;
  if (!opts.trace.empty() && (label != "baseline" || opts.strategy == "baseline")) {
    settings.tracePath = opts.trace;
    settings.traceTitle = fmt::format("tcx: {} ({})", plan.kernelGraph->graph().name, label);
  }
  return profiler.profile(label, plan, estimates, inputs, reference, settings);
}

nlohmann::json toJson(const std::optional<GpuCheck>& check) {
  if (!check) return nullptr;
  return {{"passed", check->passed}, {"error", check->error}, {"tolerance", check->tolerance}, {"output", check->output}};
}

std::string describe(const std::optional<GpuCheck>& check) { return check ? check->describe() : "not checked"; }

nlohmann::json toJson(const std::optional<backend::KernelTime::VendorTiming>& choice) {
  if (!choice) return nullptr;
  return {{"form", choice->vendor ? "vendor" : "generated"},
          {"generated_us", choice->generatedUs},
          {"vendor_us", choice->vendorUs},
          {"cached", choice->cached},
          {"library", choice->library}};
}

// " (cuDNN IMPLICIT_PRECOMP_GEMM chosen: 10.7 us against 26.0 us generated)".
std::string describe(const std::optional<backend::KernelTime::VendorTiming>& choice) {
  if (!choice) return "";
  return fmt::format(" ({} chosen: {:.1f} us against {:.1f} us {}{})", choice->vendor ? choice->library : "generated",
                     choice->vendor ? choice->vendorUs : choice->generatedUs,
                     choice->vendor ? choice->generatedUs : choice->vendorUs,
                     choice->vendor ? "generated" : "on " + choice->library, choice->cached ? ", from the cache" : "");
}

nlohmann::json toJson(const backend::PlanProfile& p) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const backend::KernelTime& k : p.kernels)
    kernels.push_back({{"name", k.name},
                       {"category", k.dataMovement ? "data_movement" : "compute"},
                       {"launches", k.launches},
                       {"forms", k.forms},
                       {"us", k.us},
                       {"choice", toJson(k.choice)}});
  return {{"strategy", p.label},          {"latency_us", p.totalUs},       {"data_movement_us", p.dataMovementUs},
          {"wall_us", p.wallUs},          {"wall_spread_us", p.wallSpreadUs}, {"cuda_graph", p.graph},
          {"dependent_launch", p.dependentLaunch},
          {"compute_us", p.computeUs},    {"compile_ms", p.compileMs},     {"timing_source", p.timingSource},
          {"compile_parts", p.compileParts}, {"compile_parts_cached", p.compileCached},
          {"compile_slowest_part_ms", p.compileSlowestPartMs},
          {"extra_memory_bytes", p.extraBytes},
          {"vendor_alternatives", p.vendorAlternatives}, {"vendor_calls", p.vendorCalls},
          {"vendor_choice_ms", p.vendorChoiceMs},
          {"check", toJson(p.check)},     {"kernels", kernels}};
}

// "cold: 16 parts on 16 threads", "warm: all 16 parts from the cache".
std::string compileSource(const backend::PlanProfile& p) {
  if (p.compileCached == p.compileParts) return fmt::format("warm: all {} parts from the cache", p.compileParts);
  if (p.compileCached == 0)
    return fmt::format("cold: {} parts in parallel, the slowest {:.2f} s", p.compileParts, p.compileSlowestPartMs / 1000);
  return fmt::format("{} of {} parts from the cache", p.compileCached, p.compileParts);
}

void printText(const backend::PlanProfile& p) {
  fmt::print("\n{} plan: {:.1f} us wall per run ({}{}; p10-p90 spread {:.1f} us), {:.1f} us from the first kernel's "
             "start to the last's end ({} kernels; data movement {:.1f} us, compute {:.1f} us), compiled in {:.2f} s "
             "({}), extra memory {}, {}; {} of {} GEMMs and convolutions on cuBLAS/cuDNN (chosen in {:.2f} s)\n",
             p.label, p.wallUs, p.graph ? "one CUDA graph launch" : "kernel by kernel",
             p.dependentLaunch ? ", each kernel launched as the one before it ends" : "", p.wallSpreadUs, p.totalUs,
             p.kernels.size(), p.dataMovementUs, p.computeUs, p.compileMs / 1000, compileSource(p),
             formatBytes(p.extraBytes), describe(p.check), p.vendorCalls, p.vendorAlternatives,
             p.vendorChoiceMs / 1000);
  for (const backend::KernelTime& k : p.kernels)
    fmt::print("  {:>10.1f} us  {:<13} {:>2} launch{} {}: {}{}\n", k.us, k.dataMovement ? "data movement" : "compute",
               k.launches, k.launches == 1 ? " " : "es", k.name, fmt::join(k.forms, "; "), describe(k.choice));
}

int profile(const ProfileOptions& opts) {
  backend::PlanProfiler profiler;
  const backend::GpuStatus gpu = backend::gpuStatus();
  VtcSession session(opts.model.load(), defaultGpuPreset(), opts.plan.options());
  session.select(opts.constraints);
  opts.model.printPassTimings(session.passTimings());
  auto inputs = randomInputs(session.graph(), 1);
  std::optional<ExecutionResult> reference;
  if (opts.check) reference = ReferenceExecutor(session.graph()).run(inputs);
  std::vector<backend::PlanProfile> profiles;
  // A GPU failure names the plan and its kernel (PlanProfiler::profile); the
  // model's file goes in front.
  try {
    if (opts.strategy != "greedy")
      profiles.push_back(profilePlan(profiler, "baseline", session.baselinePlan(), session.baselineLatency(), inputs,
                                     reference ? &*reference : nullptr, opts));
    if (opts.strategy != "baseline")
      profiles.push_back(profilePlan(profiler, "greedy", session.optimizedPlan(), session.optimizedLatency(), inputs,
                                     reference ? &*reference : nullptr, opts));
  } catch (const Error& e) {
    throw e.withContext(opts.model.path);
  }
  if (profiles.size() == 2) {
    session.setMeasuredLatency(profiles[0].latency, profiles[1].latency, gpu.name);
    if (!opts.report.empty()) writeVtcReport(opts.report, session, {opts.model.path, opts.commandLine});
  }
  // --check is a verdict: a plan whose outputs are off exits with
  // kNotEquivalent, whatever it printed.
  const bool allPassed = std::all_of(profiles.begin(), profiles.end(),
                                     [](const backend::PlanProfile& p) { return !p.check || p.check->passed; });
  const int exitCode = allPassed ? kOk : kNotEquivalent;
  if (opts.json) {
    nlohmann::json j{{"model", opts.model.path}, {"device", gpu.describe}, {"latency_source", "measured"}};
    for (const backend::PlanProfile& p : profiles) j["plans"].push_back(toJson(p));
    fmt::print("{}\n", j.dump(2));
    return exitCode;
  }
  fmt::print("model     {} (graph '{}')\ndevice    {}\ntiming    {}, median of {} runs, L2 flushed between runs\n",
             opts.model.path, session.graph().name, gpu.describe, profiles.front().timingSource, opts.repetitions);
  for (const backend::PlanProfile& p : profiles) printText(p);
  if (profiles.size() == 2)
    fmt::print("\nspeed-up  {:.2f}x wall, {:.2f}x kernel span (measured)\n", profiles[0].wallUs / profiles[1].wallUs,
               profiles[0].totalUs / profiles[1].totalUs);
  if (!opts.trace.empty()) fmt::print("trace written to {}\n", opts.trace);
  if (!opts.report.empty()) fmt::print("report written to {}\n", opts.report);
  if (!allPassed) fmt::print(stderr, "tcx profile: a plan's outputs differ from the CPU reference (see above)\n");
  return exitCode;
}

} // namespace

void addProfileCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto opts = std::make_shared<ProfileOptions>();
  opts->commandLine = std::move(commandLine);
  CLI::App* cmd = app.add_subcommand("profile", "Run the baseline and optimised plans on the GPU and time every kernel");
  opts->model.addTo(*cmd);
  cmd->add_option("--strategy", opts->strategy, "Which plans: baseline, greedy or both")
      ->check(CLI::IsMember({"baseline", "greedy", "both"}));
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->add_option("--vendor", opts->vendor,
                  "Where a GEMM or convolution can run on cuBLAS/cuDNN instead of generated code: measure (the "
                  "faster, cached per device and shape), never, or always")
      ->check(CLI::IsMember({"measure", "never", "always"}));
  cmd->add_option("--reps", opts->repetitions, "Timed repetitions (median reported)")->check(CLI::PositiveNumber);
  cmd->add_flag("--check", opts->check, "Check the GPU outputs against the CPU reference executor");
  cmd->add_flag("--serial-launches", opts->serialLaunches,
                "Launch each kernel only after the one before it completes (no programmatic dependent launch), "
                "to measure what that gains");
  addPlanFlags(*cmd, opts->plan);
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
