#pragma once
// The options every command that opens a model shares: the model path and
// bindings for symbolic dimensions.

#include "ir/Graph.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace tcx::cli {

struct ModelOptions {
  std::string path;
  std::vector<std::string> dims; // "name=value"

  void addTo(CLI::App& command);
  // Imports the model (folding shape computations); raises tcx::Error.
  Graph load() const;
};

} // namespace tcx::cli
