#pragma once
// Writes a Graph as an ONNX model: graph inputs and outputs with their types,
// constants as initializers (raw_data), nodes with their attributes, in the
// canonical (newest-opset) form that the importer produces.

#include <cstdint>
#include <string>

namespace tcx {

class Graph;

// The serialised model. The bytes depend only on the graph (no timestamps,
// no version strings), so exports can be compared byte for byte. `opset` is
// the default domain's version, in [18, 21]: earlier opsets had attributes
// where the canonical form has inputs (Reduce* axes, Split num_outputs).
std::string exportOnnxBytes(const Graph& graph, int64_t opset = 18);

// Writes the model to `path` through a temporary file, so that `path` never
// holds a half-written model.
void exportOnnx(const Graph& graph, const std::string& path, int64_t opset = 18);

} // namespace tcx
