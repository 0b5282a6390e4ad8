#pragma once
// The programs `tcx superopt` and the explorer search, one per LAX
// subprogram of a model (Mirage §1). A cut made only because the next op is
// outside LAX but still has a μGraph form (RMSNorm's Sqrt) is undone: the
// neighbours are joined through it, since that is where Mirage's RMSNorm
// fusion lives. Such a program is verified by the float test, and its
// candidates say "unproven (float test)", never "equivalent".

#include "ir/Graph.h"
#include "mugraph/MuGraph.h"

#include <string>
#include <vector>

namespace tcx::superopt {

struct SuperoptProgram {
  std::vector<const Node*> nodes; // in topological order
  bool lax = true;
  std::string joined;        // why subprograms were joined ("through '/norm/Sqrt' (Sqrt)"); empty if not
  mugraph::KernelGraph program;
};

// Programs with no μGraph form at all (Conv, Transpose, ...) are left out.
std::vector<SuperoptProgram> superoptPrograms(const Graph& graph);

// "program 2: 5 ops (MatMul, Softmax)": which ops it holds, each type once,
// and where it was joined across a non-LAX op (verified by the float test);
// how the explorers list the programs to choose from.
std::string describeProgram(const SuperoptProgram& program, size_t index);

} // namespace tcx::superopt
