// tcx export MODEL --out DIR: the optimised (or baseline) plan as a
// standalone CUDA program, built with nvcc (codegen/CudaExport.h).
#include "Commands.h"
#include "EdgeConstraintOptions.h"
#include "PlanFlags.h"
#include "ModelOptions.h"

#include "backend/KernelExport.h"
#include "target/GpuPreset.h"
#include "pipeline/VtcSession.h"

#include <fmt/format.h>
#include <memory>

namespace tcx::cli {

namespace {

struct ExportOptions {
  ModelOptions model;
  EdgeConstraintSpecs constraints;
  std::string out;
  std::string strategy = "greedy";
  std::string arch = "sm_90a";
  int smCount = 132;
  PlanFlags plan;
};

int exportPlan(const ExportOptions& opts) {
  VtcSession session(opts.model.load(), defaultGpuPreset(), opts.plan.options());
  session.select(opts.constraints);
  opts.model.printPassTimings(session.passTimings());
  const ExecPlan& plan = opts.strategy == "baseline" ? session.baselinePlan() : session.optimizedPlan();
  const backend::KernelExportSummary summary =
      backend::exportKernels(plan, opts.out, {.arch = opts.arch, .smCount = opts.smCount});
  fmt::print("exported the {} plan of '{}' to {}: {} kernels, {} launches, {} files\n", opts.strategy,
             session.graph().name, opts.out, plan.kernels.size(), summary.launches, summary.files);
  fmt::print("build it with: cmake -S {0} -B {0}/build && cmake --build {0}/build\n", opts.out);
  return 0;
}

} // namespace

void addExportCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand("export", "Write a plan's CUDA kernels and a host driver as a standalone project");
  opts->model.addTo(*cmd);
  cmd->add_option("--out", opts->out, "Directory to write (created if missing)")->required();
  cmd->add_option("--strategy", opts->strategy, "Which plan: greedy (optimised) or baseline")
      ->check(CLI::IsMember({"baseline", "greedy"}));
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->add_option("--arch", opts->arch, "CUDA architecture of the CMake project (sm_90a; sm_90 and others keep float GEMMs off wgmma)");
  cmd->add_option("--sms", opts->smCount, "Multiprocessors the launch configurations are sized for")
      ->check(CLI::PositiveNumber);
  addPlanFlags(*cmd, opts->plan);
  cmd->callback([opts, &action] { action = [opts] { return exportPlan(*opts); }; });
}

} // namespace tcx::cli
