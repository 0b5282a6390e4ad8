#include "ModelOptions.h"

#include "onnx/OnnxImporter.h"

#include <fmt/format.h>

namespace tcx::cli {

void ModelOptions::addTo(CLI::App& command) {
  command.add_option("MODEL", path, "ONNX model file (.onnx)")->required()->check(CLI::ExistingFile);
  command.add_option("--dim", dims, "Bind a symbolic input dimension, NAME=SIZE (repeatable)")
      ->type_name("NAME=SIZE");
  command.add_flag("--time-passes", timePasses, "Print the wall time of every compiler pass to stderr");
}

Graph ModelOptions::load() const {
  ImportOptions options;
  for (const std::string& binding : dims) {
    size_t eq = binding.find('=');
    TCX_CHECK(eq != std::string::npos && eq > 0, ErrorKind::InvalidArgument, "--dim expects NAME=SIZE, got '{}'",
              binding);
    int64_t size = 0;
    try {
      size_t used = 0;
      size = std::stoll(binding.substr(eq + 1), &used);
      TCX_CHECK(used == binding.size() - eq - 1 && size > 0, ErrorKind::InvalidArgument, "bad size");
    } catch (const std::exception&) {
      raise(ErrorKind::InvalidArgument, "--dim {}: the size must be a positive integer", binding);
    }
    options.dimBindings[binding.substr(0, eq)] = size;
  }
  PassTimings timings;
  options.timings = &timings;
  Graph graph = importOnnx(path, options);
  printPassTimings(timings);
  return graph;
}

void ModelOptions::printPassTimings(const PassTimings& timings) const {
  if (!timePasses) return;
  fmt::print(stderr, "pass timings (wall):\n");
  for (const PassTiming& t : timings.entries())
    fmt::print(stderr, "  {:<14} {:<28} {:>10.3f} ms\n", t.pipeline, t.pass, t.seconds * 1e3);
  fmt::print(stderr, "  {:<43} {:>10.3f} ms\n", "total", timings.totalSeconds() * 1e3);
}

} // namespace tcx::cli
