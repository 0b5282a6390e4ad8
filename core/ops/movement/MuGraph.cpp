// The μGraph form of this family's ops: the views that only reshape (and
// Expand, a Repeat) are μGraph operators; the others permute or select
// elements, which no μGraph operator does. An op missing here has no μGraph
// form.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"

namespace tcx {

namespace {

using Handle = MuGraphBuilder::Handle;

Handle reshapeToResult(const Node& n, MuGraphBuilder& b) {
  return b.reshape(b.value(n.input(0)), n.output(0)->type().shape);
}

// Leading 1s for the rank the result has, then a Repeat by the result's
// extent along each dimension that broadcasts.
Handle lowerExpand(const Node& n, MuGraphBuilder& b) {
  const Shape& out = n.output(0)->type().shape;
  Shape s = n.input(0)->type().shape;
  Handle t = b.value(n.input(0));
  if (s.size() < out.size()) {
    s.insert(s.begin(), out.size() - s.size(), 1);
    t = b.reshape(t, s);
  }
  Shape factors(out.size());
  for (size_t d = 0; d < out.size(); ++d) factors[d] = s[d] == out[d] ? 1 : out[d];
  return b.repeat(t, factors);
}

} // namespace

void registerMovementMuGraphForms(OpRegistry& registry) {
  for (const char* name : {"Reshape", "Squeeze", "Unsqueeze", "Flatten"})
    registry.edit(name).muGraph = {.lower = reshapeToResult};
  registry.edit("Identity").muGraph = {.lower = [](const Node& n, MuGraphBuilder& b) { return b.value(n.input(0)); }};
  registry.edit("Expand").muGraph = {.lower = lowerExpand};
}

} // namespace tcx
