#pragma once
// Splits an imported graph into LAX subprograms (Mirage §1, Figure 1) and says
// why each boundary was cut. Nodes are taken in topological order; a
// subprogram grows until the next node is outside LAX (it becomes a
// subprogram of its own, marked non-LAX) or would put a second exponentiation
// on a path inside the subprogram (it starts the next one).

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tcx::mugraph {

struct LaxSubprogram {
  std::vector<const Node*> nodes; // in topological order
  bool lax = true;
  std::string cut; // why it ends here: "next: node 'x' (Sqrt): Sqrt is not LAX", "end of graph"
  int exps = 0;    // the most exponentiations on one path inside it
};

std::vector<LaxSubprogram> partitionLax(const Graph& graph);

} // namespace tcx::mugraph
