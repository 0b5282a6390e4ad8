#pragma once
// One level of a μGraph (Mirage §2) as a DisplayGraph: the kernel graph, the
// block graph of one of its graph-defined operators, or the thread graph of
// one of a block graph's. The explorer draws one level at a time and descends
// into a graph-defined operator (drawn as a group one can open), so that a
// candidate with several custom kernels stays readable.
//
// Operators are Node refs named by their path from the kernel graph: "2" is
// kernel operator 2, "2/5" operator 5 of its block graph, "2/5/1" operator 1
// of that operator's thread graph. Tensors are Value refs "2/5:0" (output 0).
// Input iterators and output accumulators show their imap/omap/fmap, the
// title the grid and for-loop dims.

#include "mugraph/MuGraph.h"
#include "view/DisplayGraph.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx::view {

// The graph-defined operators from the kernel graph down to a level; empty
// is the kernel graph itself.
using MuGraphPath = std::vector<int>;

struct MuOpId {
  MuGraphPath level;
  int op = 0;
  bool operator==(const MuOpId&) const = default;
};

ItemRef muOpRef(const MuOpId& id);
// The inverse of muOpRef; nullopt for any other ref.
std::optional<MuOpId> parseMuOpRef(const ItemRef& ref);

// The graph at `level`; raises InvalidArgument when a step is not a
// graph-defined operator of the graph above it.
const mugraph::OperatorGraph& muGraphLevel(const mugraph::KernelGraph& graph, const MuGraphPath& level);

// "kernel graph lora", "block graph of operator 3: grid [2,2], for-loop [2]".
std::string muGraphTitle(const mugraph::KernelGraph& graph, const MuGraphPath& level);

// The operators of one level: Input operators and input iterators as graph
// inputs, output accumulators and the kernel graph's outputs as graph
// outputs, Reshape and Repeat as data movement, graph-defined operators as
// groups; one edge per operand, labelled with its shape.
DisplayGraph buildMuGraphView(const mugraph::KernelGraph& graph, const MuGraphPath& level = {});

// One operator in words: its type and level, attributes, maps, the parent
// input an iterator reads, operand and result shapes, a body's partition and
// the abstract expression of each result (superopt::exprsOf).
std::string muOpDetails(const mugraph::KernelGraph& graph, const MuOpId& id);

} // namespace tcx::view
