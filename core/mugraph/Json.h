#pragma once
// μGraph files: JSON with every level nested in its graph-defined operator
// (docs/mugraph.md documents the format). Reading checks the graph as
// building it does, so a file that loads is a valid μGraph.

#include "mugraph/MuGraph.h"

#include <string>
#include <string_view>

namespace tcx::mugraph {

std::string toJson(const KernelGraph& graph);
// `source` names the text in errors: InvalidModel "<source>: ops[3]: ...".
KernelGraph fromJson(std::string_view text, const std::string& source);
// Io if the file cannot be read; InvalidModel naming the file if it is not a μGraph.
KernelGraph loadMuGraph(const std::string& path);
void saveMuGraph(const KernelGraph& graph, const std::string& path); // atomically

} // namespace tcx::mugraph
