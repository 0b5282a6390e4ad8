// tcx lax MODEL: the model's LAX subprograms (Mirage §1) and why each
// boundary was cut; optionally each LAX subprogram as a μGraph file.
#include "Commands.h"
#include "ModelOptions.h"

#include "mugraph/Conversion.h"
#include "mugraph/Json.h"
#include "mugraph/LaxPartition.h"
#include "report/MuGraphReport.h"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct LaxOptions {
  ModelOptions model;
  std::string report;
  std::string saveDir;
  bool json = false;
  std::string commandLine;
};

std::string opsOf(const mugraph::LaxSubprogram& p) {
  std::vector<std::string> ops;
  for (const Node* n : p.nodes) ops.push_back(n->opType());
  return fmt::format("{}", fmt::join(ops, "+"));
}

} // namespace

void addLaxCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto opts = std::make_shared<LaxOptions>();
  opts->commandLine = std::move(commandLine);
  CLI::App* cmd = app.add_subcommand("lax", "Split the model into LAX subprograms and say why each boundary was cut");
  opts->model.addTo(*cmd);
  cmd->add_option("--report", opts->report, "Write the partition to this SQLite report");
  cmd->add_option("--save", opts->saveDir, "Write each LAX subprogram as DIR/lax_<i>.json (a μGraph)");
  cmd->add_flag("--json", opts->json, "Print the partition as JSON");
  cmd->callback([opts, &action] {
    action = [opts] {
      Graph graph = opts->model.load();
      std::vector<mugraph::LaxSubprogram> parts = mugraph::partitionLax(graph);
      if (!opts->saveDir.empty()) {
        std::filesystem::create_directories(opts->saveDir);
        for (size_t i = 0; i < parts.size(); ++i)
          if (parts[i].lax)
            mugraph::saveMuGraph(mugraph::toMuGraph(parts[i].nodes, fmt::format("{}_lax_{}", graph.name, i)),
                                 fmt::format("{}/lax_{}.json", opts->saveDir, i));
      }
      if (!opts->report.empty()) writeLaxReport(opts->report, graph, parts, {opts->model.path, opts->commandLine});
      if (opts->json) {
        nlohmann::json list = nlohmann::json::array();
        for (const mugraph::LaxSubprogram& p : parts)
          list.push_back({{"lax", p.lax},
                          {"nodes", p.nodes.size()},
                          {"ops", opsOf(p)},
                          {"max_exps", p.exps},
                          {"first", p.nodes.front()->name()},
                          {"last", p.nodes.back()->name()},
                          {"cut", p.cut}});
        fmt::print("{}\n", nlohmann::json{{"graph", graph.name}, {"subprograms", list}}.dump(2));
        return 0;
      }
      fmt::print("{}: {} subprograms\n", graph.name, parts.size());
      for (size_t i = 0; i < parts.size(); ++i)
        fmt::print("  {:>3} {:<7} {:>3} nodes  {}\n      cut: {}\n", i, parts[i].lax ? "LAX" : "non-LAX",
                   parts[i].nodes.size(), opsOf(parts[i]), parts[i].cut);
      return 0;
    };
  });
}

} // namespace tcx::cli
