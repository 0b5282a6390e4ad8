#pragma once
// The options every command that opens a model shares: the model path,
// bindings for symbolic dimensions, and --time-passes.

#include "ir/Graph.h"
#include "passes/PassPipeline.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace tcx::cli {

struct ModelOptions {
  std::string path;
  std::vector<std::string> dims; // "name=value"
  bool timePasses = false;

  void addTo(CLI::App& command);
  // Imports the model (folding shape computations), printing the import's
  // pass times with --time-passes; raises tcx::Error.
  Graph load() const;
  // With --time-passes, prints `timings` (a VtcSession's passTimings()) to
  // stderr, as LLVM's -time-passes does.
  void printPassTimings(const PassTimings& timings) const;
};

} // namespace tcx::cli
