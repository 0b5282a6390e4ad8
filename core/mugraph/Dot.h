#pragma once
// Graphviz DOT of a μGraph: the kernel graph at the top, each graph-defined
// operator a cluster holding its block graph, and each block graph's
// graph-defined operators clusters holding their thread graphs. Iterators and
// accumulators carry their imap/omap/fmap; a dashed edge joins each parent
// operand to the iterator that reads it, and each accumulator to the parent
// operator's output.

#include "mugraph/MuGraph.h"

#include <ostream>

namespace tcx::mugraph {

void writeDot(const KernelGraph& graph, std::ostream& out);

} // namespace tcx::mugraph
