// tcx-samples: writes the bundled sample models as ONNX files.
//   tcx-samples [--out DIR] [--list] [NAME...]
#include "Samples.h"

#include "onnx/OnnxExporter.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>

int main(int argc, char** argv) {
  CLI::App app{"tcx-samples: write the bundled sample models (weights are graph inputs) as ONNX"};
  std::string out = ".";
  std::vector<std::string> names;
  bool list = false;
  int llamaLayers = 0, stackOps = 0;
  app.add_option("--out", out, "Output directory (default: current directory)");
  app.add_flag("--list", list, "List the samples and exit");
  app.add_option("NAME", names, "Samples to write (default: all)");
  app.add_option("--llama-layers", llamaLayers,
                 "Instead, write Llama-3 decode at reduced shapes with N layers (about 45 ops each) as "
                 "llama3_decode_<N>layers.onnx: the explorers' large-model tests");
  app.add_option("--stack-ops", stackOps,
                 "Instead, write a chain of N ops as op_stack_<N>ops.onnx: the web explorer's "
                 "10,000-node drawing test");
  CLI11_PARSE(app, argc, argv);

  const auto& samples = tcx::samples::allSamples();
  if (list) {
    for (const auto& s : samples) fmt::print("{:<24} {}\n", s.name, s.description);
    return 0;
  }
  for (const std::string& n : names)
    if (std::none_of(samples.begin(), samples.end(), [&](const auto& s) { return s.name == n; })) {
      fmt::print(stderr, "tcx-samples: no sample named '{}' (see --list)\n", n);
      return 2;
    }
  try {
    std::filesystem::create_directories(out);
    if (stackOps > 0) {
      const std::string path = fmt::format("{}/op_stack_{}ops.onnx", out, stackOps);
      tcx::exportOnnx(tcx::samples::buildOpStack(stackOps), path);
      fmt::print("wrote {}\n", path);
      return 0;
    }
    if (llamaLayers > 0) {
      const std::string path = fmt::format("{}/llama3_decode_{}layers.onnx", out, llamaLayers);
      tcx::exportOnnx(tcx::samples::buildLlama3Decode(tcx::samples::reducedLlama(llamaLayers)), path);
      fmt::print("wrote {}\n", path);
      return 0;
    }
    for (const auto& s : samples) {
      if (!names.empty() && std::find(names.begin(), names.end(), s.name) == names.end()) continue;
      std::string path = fmt::format("{}/{}.onnx", out, s.name);
      tcx::exportOnnx(s.build(), path);
      fmt::print("wrote {}\n", path);
    }
  } catch (const tcx::Error& e) {
    fmt::print(stderr, "tcx-samples: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
