// tcx run MODEL: execute a model on the CPU with the reference executor.
#include "Commands.h"
#include "Format.h"
#include "ModelOptions.h"
#include "ProgressBar.h"

#include "exec/Checksum.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "onnx/TensorProto.h"

#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct RunOptions {
  ModelOptions model;
  uint64_t seed = 0;
  std::string inputsDir;
  std::string saveOutputsDir;
  bool json = false;
};

// Reads input_<i>.pb files (the ONNX test-data layout). A file is matched to
// a graph input by the name it carries, or by its index when unnamed.
std::map<std::string, Tensor> readInputs(const Graph& graph, const std::string& dir) {
  std::map<std::string, Tensor> inputs;
  const auto& graphInputs = graph.inputs();
  for (size_t i = 0; i < graphInputs.size(); ++i) {
    std::string path = fmt::format("{}/input_{}.pb", dir, i);
    TCX_CHECK(std::filesystem::exists(path), ErrorKind::Io, "'{}' is missing (graph input '{}')", path,
              graphInputs[i]->name());
    NamedTensor nt = readTensorFile(path);
    std::string name = nt.name.empty() ? graphInputs[i]->name() : nt.name;
    TCX_CHECK(graph.findValue(name) && graph.findValue(name)->isGraphInput(), ErrorKind::InvalidArgument,
              "'{}' holds tensor '{}', which is not an input of the model", path, name);
    inputs[name] = std::move(nt.tensor);
  }
  return inputs;
}

void saveOutputs(const Graph& graph, const std::vector<Tensor>& outputs, const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < outputs.size(); ++i)
    writeTensorFile(fmt::format("{}/output_{}.pb", dir, i), outputs[i], graph.outputs()[i]->name());
}

int runModel(const RunOptions& opts) {
  Graph graph = opts.model.load();
  std::map<std::string, Tensor> inputs =
      opts.inputsDir.empty() ? randomInputs(graph, opts.seed) : readInputs(graph, opts.inputsDir);
  ReferenceExecutor executor(graph);
  ExecutionResult result;
  {
    ProgressBar bar("running");
    result = executor.run(inputs, bar.callback());
  }
  if (!opts.saveOutputsDir.empty()) saveOutputs(graph, result.outputs, opts.saveOutputsDir);

  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    const Tensor& t = result.outputs[i];
    TensorChecksum c = checksum(t);
    outputs.push_back({{"name", graph.outputs()[i]->name()},
                       {"dtype", dtypeName(t.dtype())},
                       {"shape", t.shape()},
                       {"sum", c.sum},
                       {"mean_abs", c.meanAbs},
                       {"nan_count", c.nanCount},
                       {"fnv1a", fmt::format("{:016x}", c.fnv1a)}});
  }
  if (opts.json) {
    nlohmann::json j = {{"model", opts.model.path},
                        {"seed", opts.seed},
                        {"inputs", opts.inputsDir.empty() ? "random" : opts.inputsDir},
                        {"seconds", result.seconds},
                        {"peak_intermediate_bytes", result.peakBytes},
                        {"outputs", outputs}};
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("ran {} nodes in {} (peak intermediates {}), inputs: {}\n", graph.numNodes(), formatSeconds(result.seconds),
             formatBytes(result.peakBytes), opts.inputsDir.empty() ? fmt::format("random, seed {}", opts.seed) : opts.inputsDir);
  for (const auto& o : outputs)
    fmt::print("  {:<32} {:<24} sum {:<14.6g} mean|x| {:<12.6g} nan {} fnv1a {}\n", o["name"].get<std::string>(),
               fmt::format("{}{}", o["dtype"].get<std::string>(), shapeToString(o["shape"].get<Shape>())),
               o["sum"].get<double>(), o["mean_abs"].get<double>(), o["nan_count"].get<uint64_t>(),
               o["fnv1a"].get<std::string>());
  if (!opts.saveOutputsDir.empty()) fmt::print("outputs written to {}\n", opts.saveOutputsDir);
  return 0;
}

} // namespace

void addRunCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Execute a model on the CPU reference executor and print output checksums");
  opts->model.addTo(*cmd);
  cmd->add_option("--seed", opts->seed, "Seed of the random inputs (default 0)");
  cmd->add_option("--inputs", opts->inputsDir, "Read inputs from DIR/input_<i>.pb (ONNX TensorProto files)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--save-outputs", opts->saveOutputsDir, "Write outputs to DIR/output_<i>.pb");
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of text");
  cmd->callback([opts, &action] { action = [opts] { return runModel(*opts); }; });
}

} // namespace tcx::cli
