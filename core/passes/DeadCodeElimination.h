#pragma once
// Removal of computations that no graph output depends on.

#include <cstddef>

namespace tcx {

class Graph;

// Erases the nodes none of whose results reach a graph output, and the
// constants nothing uses any more; returns how many nodes and constants
// went. Graph inputs stay, used or not: they are the graph's signature.
size_t eliminateDeadCode(Graph& graph);

} // namespace tcx
