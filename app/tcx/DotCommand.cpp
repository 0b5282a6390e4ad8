// tcx dot MODEL: a graph view as Graphviz DOT, the same DisplayGraph the
// explorer draws: the computation graph grouped by name scope or fused
// kernel, the VTOG, or the points-to graph of the selected strategy.
#include "Commands.h"
#include "EdgeConstraintOptions.h"
#include "ModelOptions.h"

#include "fusion/FusionPass.h"
#include "pipeline/VtcSession.h"
#include "support/AtomicFile.h"
#include "view/ComputationGraphView.h"
#include "view/PointsToView.h"
#include "view/VtogView.h"

#include <iostream>
#include <memory>
#include <sstream>

namespace tcx::cli {

namespace {

struct DotOptions {
  ModelOptions model;
  std::string view = "graph";
  std::string group = "scope";
  bool expandAll = false;
  EdgeConstraintSpecs constraints;
  std::string out;
};

// Scope groups are expanded as the explorer opens them (a small model
// whole, a large one as its top-level blocks) unless --expand-all.
view::DisplayGraph computationGraph(const DotOptions& opts, Graph graph) {
  std::unique_ptr<KernelGraph> kernels;
  view::GroupTree groups;
  if (opts.group == "kernel") {
    kernels = std::make_unique<KernelGraph>(fuseOperators(graph));
    groups = view::kernelTree(*kernels);
  } else {
    groups = view::scopeTree(graph);
  }
  return view::buildComputationGraph(graph, groups, opts.expandAll ? view::allGroups(groups) : view::defaultExpansion(groups));
}

view::DisplayGraph strategyGraph(const DotOptions& opts, Graph graph) {
  VtcSession session(std::move(graph), defaultGpuPreset());
  session.select(opts.constraints);
  opts.model.printPassTimings(session.passTimings());
  if (opts.view == "vtog") return view::buildVtogGraph(session.vtog(), view::vtogAnnotations(session));
  return view::buildPointsToGraph(session.strategy());
}

} // namespace

void addDotCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DotOptions>();
  CLI::App* cmd = app.add_subcommand("dot", "Write a graph view (computation graph, VTOG, points-to graph) as Graphviz DOT");
  opts->model.addTo(*cmd);
  cmd->add_option("--view", opts->view, "graph (default), vtog or points-to (the strategy the cost model selects)")
      ->check(CLI::IsMember({"graph", "vtog", "points-to"}));
  cmd->add_option("--group", opts->group, "Group the computation graph by name scope (default) or fused kernel")
      ->check(CLI::IsMember({"scope", "kernel"}));
  cmd->add_flag("--expand-all", opts->expandAll, "Draw every group expanded (default: large models collapse to their blocks)");
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->add_option("-o,--out", opts->out, "Output file (default: standard output)");
  cmd->callback([opts, &action] {
    action = [opts] {
      Graph graph = opts->model.load();
      const view::DisplayGraph display =
          opts->view == "graph" ? computationGraph(*opts, std::move(graph)) : strategyGraph(*opts, std::move(graph));
      std::ostringstream dot;
      view::writeDot(display, dot);
      if (opts->out.empty())
        std::cout << dot.str();
      else
        writeFileAtomically(opts->out, dot.str());
      return 0;
    };
  });
}

} // namespace tcx::cli
