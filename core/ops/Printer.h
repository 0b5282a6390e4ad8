#pragma once
// A human-readable text rendering of a Graph (DOT views: core/view).

#include <iosfwd>
#include <string>

namespace tcx {

class Graph;

// One line per input, node and output, MLIR-like:
//   %k = Reshape(%kv : bf16[16,1024], %shape : i64[4]) {allowzero=0} : bf16[16,8,1,128]
void printGraph(const Graph& graph, std::ostream& os);
std::string graphToString(const Graph& graph);

} // namespace tcx
