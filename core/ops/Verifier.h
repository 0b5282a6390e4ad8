#pragma once
// Structural and type checks of a Graph. Passes run it in tests and after
// import; a failure is a bug in whoever produced the graph.

namespace tcx {

class Graph;

// Raises InvalidModel (structure) or ShapeInference (types) on the first
// problem: a value without a definition or with two, an operand defined
// after its use, a node whose recorded output types disagree with what its
// op infers, a graph output that nothing defines.
void verifyGraph(const Graph& graph);

} // namespace tcx
