// tcx optimize MODEL: data-movement elimination with virtual tensors (VTC).
#include "Commands.h"
#include "EdgeConstraintOptions.h"
#include "PlanFlags.h"
#include "Format.h"
#include "ModelOptions.h"

#include "backend/GpuBackend.h"

#include "target/GpuPreset.h"
#include "pipeline/VtcSession.h"
#include "report/VtcReport.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct OptimizeOptions {
  ModelOptions model;
  EdgeConstraintSpecs constraints;
  std::string oracle = "cost";
  std::string gpu = "h100-sxm";
  PlanFlags plan;
  std::string report;
  bool json = false;
  bool listEdges = false;
  std::string commandLine;
};

nlohmann::json summaryJson(const VtcSession& s) {
  const ExecPlan &before = s.baselinePlan(), &after = s.optimizedPlan();
  nlohmann::json eliminated = nlohmann::json::array();
  for (const Node* n : after.eliminated) eliminated.push_back({{"node", n->name()}, {"op", n->opType()}});
  nlohmann::json chosen = nlohmann::json::array();
  for (int e : s.greedy().selected) {
    const VtogEdge& edge = s.vtog().edge(e);
    chosen.push_back({{"edge", fmt::format("e{}", e)},
                      {"from", edge.from->name()},
                      {"to", edge.to->name()},
                      {"op", edge.op->name()},
                      {"type", opportunityTypeName(edge.type)}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const GreedyStep& st : s.greedy().steps) {
    std::vector<std::string> names;
    for (int e : st.cover) names.push_back(fmt::format("e{}", e));
    steps.push_back({{"tensor", st.tensor->name()}, {"edges", names}, {"saving_us", st.saving * 1e6}, {"reason", st.reason}});
  }
  size_t typeI = 0;
  for (const VtogEdge& e : s.vtog().edges()) typeI += e.type == OpportunityType::TypeI;
  return {{"graph", s.graph().name},
          {"vtog_tensors", s.vtog().nodes().size()},
          {"vtog_edges", s.vtog().edges().size()},
          {"vtog_type_i_edges", typeI},
          {"chosen_edges", chosen},
          {"steps", steps},
          {"notes", s.greedy().notes},
          {"eliminated", eliminated},
          {"kernels_before", before.kernels.size()},
          {"kernels_after", after.kernels.size()},
          {"data_movement_kernels_before", before.numDataMovementKernels()},
          {"data_movement_kernels_after", after.numDataMovementKernels()},
          {"peak_memory_bytes_before", before.peakMemoryBytes()},
          {"peak_memory_bytes_after", after.peakMemoryBytes()},
          {"latency_us_before", s.baselineLatency().seconds * 1e6},
          {"latency_us_after", s.optimizedLatency().seconds * 1e6},
          {"data_movement_us_before", s.baselineLatency().dataMovementSeconds * 1e6},
          {"data_movement_us_after", s.optimizedLatency().dataMovementSeconds * 1e6},
          {"latency_source", s.latencyMeasured() ? "measured" : "estimated"},
          {"latency_device", s.latencyDevice()},
          {"oracle_calls", s.greedy().oracleCalls}};
}

void printEdges(const VtcSession& s) {
  fmt::print("VTOG edges (a -> b: a can be made virtual over b by eliminating the op)\n");
  for (const VtogEdge& e : s.vtog().edges()) {
    fmt::print("  {:<5} {} -> {}\n        {} '{}', {}, type {}, contiguous from dim {} ({} elements per run){}\n        {}\n",
               fmt::format("e{}", e.id), e.from->name(), e.to->name(), e.op->opType(), e.op->name(),
               edgeDirectionName(e.direction), opportunityTypeName(e.type), e.contiguity.minContiguousDim,
               e.contiguity.runElements, s.greedy().selected.count(e.id) ? "  [chosen]" : "",
               e.mapping.toString({e.to->name()}));
  }
}

void printText(const VtcSession& s, const OptimizeOptions& opts) {
  const ExecPlan &before = s.baselinePlan(), &after = s.optimizedPlan();
  size_t typeI = 0, conflicts = 0;
  for (const VtogEdge& e : s.vtog().edges()) typeI += e.type == OpportunityType::TypeI;
  for (const Value* v : s.vtog().nodes()) conflicts += s.vtog().conflicts(v).size();
  fmt::print("model     {} (graph '{}')\n", opts.model.path, s.graph().name);
  fmt::print("fusion    {} nodes -> {} kernels\n", s.graph().numNodes(), s.kernels().kernels().size());
  fmt::print("VTOG      {} tensors, {} edges ({} type I, {} type II), {} conflicting pairs\n", s.vtog().nodes().size(),
             s.vtog().edges().size(), typeI, s.vtog().edges().size() - typeI, conflicts);
  fmt::print("\nselection (global greedy, savings {}, {} plan evaluations)\n", s.selectionSource(), s.greedy().oracleCalls);
  int i = 0;
  for (const GreedyStep& st : s.greedy().steps) {
    std::vector<std::string> names;
    for (int e : st.cover) names.push_back(fmt::format("e{}", e));
    if (st.cover.empty())
      fmt::print("  {:>2}. {} stays physical: {}\n", ++i, st.tensor->name(), st.reason);
    else
      fmt::print("  {:>2}. {} virtual via {} ({}), saves {:.2f} us\n", ++i, st.tensor->name(), fmt::join(names, ", "), st.reason,
                 st.saving * 1e6);
  }
  for (const std::string& n : s.greedy().notes) fmt::print("  note: {}\n", n);
  fmt::print("\npoints-to graph (virtual tensor -> storage)\n");
  for (const Value* v : s.vtog().nodes()) {
    if (!s.strategy().isVirtual(v)) continue;
    std::vector<std::string> storage;
    for (const Value* p : s.strategy().resolve(v).physical) storage.push_back(p->name());
    fmt::print("  {} -> {}\n", v->name(), fmt::join(storage, ", "));
  }
  std::vector<std::string> gone;
  for (const Node* n : after.eliminated) gone.push_back(fmt::format("{} ({})", n->name(), n->opType()));
  fmt::print("\neliminated {} of {} data-movement ops{}{}\n", after.eliminated.size(), before.numDataMovementKernels(),
             gone.empty() ? "" : ": ", fmt::join(gone, ", "));
  fmt::print("\n{:<22} {:>14} {:>14}\n", "", "before", "after");
  fmt::print("{:<22} {:>14} {:>14}\n", "kernels", before.kernels.size(), after.kernels.size());
  fmt::print("{:<22} {:>14} {:>14}\n", "data-movement kernels", before.numDataMovementKernels(), after.numDataMovementKernels());
  fmt::print("{:<22} {:>14.1f} {:>14.1f}   {}\n", "latency (us)", s.baselineLatency().seconds * 1e6,
             s.optimizedLatency().seconds * 1e6, s.latencySource());
  fmt::print("{:<22} {:>14.1f} {:>14.1f}\n", "  data movement (us)", s.baselineLatency().dataMovementSeconds * 1e6,
             s.optimizedLatency().dataMovementSeconds * 1e6);
  fmt::print("{:<22} {:>14.1f} {:>14.1f}\n", "  compute (us)", s.baselineLatency().computeSeconds * 1e6,
             s.optimizedLatency().computeSeconds * 1e6);
  fmt::print("{:<22} {:>14} {:>14}\n", "peak memory", formatBytes(before.peakMemoryBytes()), formatBytes(after.peakMemoryBytes()));
  if (!opts.report.empty()) fmt::print("\nreport written to {}\n", opts.report);
}

int optimize(const OptimizeOptions& opts) {
  std::optional<GpuPreset> preset = findGpuPreset(opts.gpu);
  if (!preset) {
    std::vector<std::string> names;
    for (const GpuPreset& p : gpuPresets()) names.push_back(p.name);
    raise(ErrorKind::InvalidArgument, "unknown GPU preset '{}' (presets: {})", opts.gpu, fmt::join(names, ", "));
  }
  const PlanOptions planOptions = opts.plan.options();
  VtcSession session(opts.model.load(), *preset, planOptions);
  std::unique_ptr<SavingOracle> oracle;
  if (opts.oracle == "profile") oracle = backend::makeProfileOracle(session, planOptions);
  session.select(opts.constraints, oracle.get());
  opts.model.printPassTimings(session.passTimings());
  if (oracle) backend::measureSession(session, 20);
  if (!opts.report.empty()) writeVtcReport(opts.report, session, {opts.model.path, opts.commandLine});
  if (opts.json) {
    nlohmann::json j = summaryJson(session);
    j["model"] = opts.model.path;
    if (!opts.report.empty()) j["report"] = opts.report;
    fmt::print("{}\n", j.dump(2));
  } else {
    if (opts.listEdges) printEdges(session);
    printText(session, opts);
  }
  return 0;
}

} // namespace

void addOptimizeCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto opts = std::make_shared<OptimizeOptions>();
  opts->commandLine = std::move(commandLine);
  CLI::App* cmd = app.add_subcommand("optimize", "Eliminate data movement with virtual tensors (VTC): VTOG, greedy, plan");
  opts->model.addTo(*cmd);
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->add_option("--oracle", opts->oracle, "Where savings come from: cost (the cost model) or profile (a GPU)")
      ->check(CLI::IsMember({"cost", "profile"}));
  cmd->add_option("--gpu", opts->gpu, "GPU preset of the cost model: h100-sxm, h100-pcie, h200, a100");
  addPlanFlags(*cmd, opts->plan);
  cmd->add_option("--report", opts->report, "Write the SQLite report to FILE.db (docs/report-schema.md)");
  cmd->add_flag("--edges", opts->listEdges, "List every VTOG edge with its mapping function");
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of text");
  cmd->callback([opts, &action] { action = [opts] { return optimize(*opts); }; });
}

} // namespace tcx::cli
