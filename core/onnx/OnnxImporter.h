#pragma once
// Reads an ONNX model into a Graph in canonical form, with every type
// inferred and shape computations folded away.

#include "ir/Graph.h"
#include "passes/PassPipeline.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcx {

struct ImportOptions {
  // Sizes of symbolic input dimensions (dim_param), by name: {"batch", 1}.
  std::map<std::string, int64_t> dimBindings;
  // Graph inputs replaced by constants, by input name; shapes that depend on
  // input values can then be inferred.
  std::map<std::string, Tensor> inputBindings;
  bool foldConstants = true;
  // Where the canonicalising passes record their times (--time-passes).
  PassTimings* timings = nullptr;
};

// Imports the model in `path`; external data is read relative to its folder.
// Errors carry "<file>: node '<name>' (<Op>): " in front of their message.
Graph importOnnx(const std::string& path, const ImportOptions& options = {});

// Imports a serialised model; `displayName` stands for the file in messages,
// and its folder is where external data is looked for.
Graph importOnnxBytes(const std::string& bytes, const std::string& displayName, const ImportOptions& options = {});

} // namespace tcx
