// tcx info MODEL: what is in a model, with data-movement ops marked.
#include "Commands.h"
#include "Format.h"
#include "ModelOptions.h"

#include "analysis/GraphSummary.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct InfoOptions {
  ModelOptions model;
  bool json = false;
  bool listTensors = false;
};

nlohmann::json toJson(const GraphSummary& s, const std::string& path) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpCount& c : s.ops) ops.push_back({{"op", c.opType}, {"count", c.count}, {"data_movement", c.dataMovement}});
  nlohmann::json tensors = nlohmann::json::array();
  for (const TensorSummary& t : s.tensors)
    tensors.push_back({{"name", t.name},
                       {"kind", tensorKindName(t.kind)},
                       {"dtype", dtypeName(t.type.dtype)},
                       {"shape", t.type.shape},
                       {"bytes", t.type.byteSize()},
                       {"producer", t.producer}});
  return {{"model", path},
          {"graph", s.graphName},
          {"nodes", s.numNodes},
          {"data_movement_nodes", s.numDataMovementNodes},
          {"ops", ops},
          {"input_bytes", s.inputBytes},
          {"output_bytes", s.outputBytes},
          {"constant_bytes", s.constantBytes},
          {"intermediate_bytes", s.intermediateBytes},
          {"tensors", tensors}};
}

void printText(const GraphSummary& s, const std::string& path, bool listTensors) {
  fmt::print("model   {}  (graph '{}')\n", path, s.graphName);
  fmt::print("nodes   {} ({} data movement)\n", s.numNodes, s.numDataMovementNodes);
  fmt::print("bytes   inputs {}, outputs {}, constants {}, intermediates {}\n", formatBytes(s.inputBytes),
             formatBytes(s.outputBytes), formatBytes(s.constantBytes), formatBytes(s.intermediateBytes));
  fmt::print("\nops\n");
  for (const OpCount& c : s.ops) fmt::print("  {:<22} {:>5}{}\n", c.opType, c.count, c.dataMovement ? "  [data movement]" : "");
  fmt::print("\ntensors\n");
  for (const TensorSummary& t : s.tensors) {
    if (!listTensors && t.kind != TensorSummary::Kind::Input && t.kind != TensorSummary::Kind::Output) continue;
    fmt::print("  {:<12} {:<40} {:<28} {:>10}\n", tensorKindName(t.kind), t.name, t.type.toString(),
               formatBytes(t.type.byteSize()));
  }
  if (!listTensors) fmt::print("  (--tensors lists intermediates and constants too)\n");
}

} // namespace

void addInfoCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* cmd = app.add_subcommand("info", "Show a model's ops, tensors and sizes; data-movement ops are marked");
  opts->model.addTo(*cmd);
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of text");
  cmd->add_flag("--tensors", opts->listTensors, "List every tensor, not only inputs and outputs");
  cmd->callback([opts, &action] {
    action = [opts] {
      Graph graph = opts->model.load();
      GraphSummary summary = summarizeGraph(graph);
      if (opts->json)
        fmt::print("{}\n", toJson(summary, opts->model.path).dump(2));
      else
        printText(summary, opts->model.path, opts->listTensors);
      return 0;
    };
  });
}

} // namespace tcx::cli
