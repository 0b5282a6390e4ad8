#include "superopt/Superoptimize.h"

#include "mugraph/Conversion.h"
#include "mugraph/LaxPartition.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

namespace tcx::superopt {

std::vector<SuperoptProgram> superoptPrograms(const Graph& graph) {
  std::vector<mugraph::LaxSubprogram> parts = mugraph::partitionLax(graph);
  auto convertible = [](const mugraph::LaxSubprogram& p) {
    for (const Node* n : p.nodes)
      if (!mugraph::classifyNode(*n).convertible) return false;
    return true;
  };
  std::vector<SuperoptProgram> out;
  bool joinNext = false;
  for (const mugraph::LaxSubprogram& p : parts) {
    if (!convertible(p)) {
      joinNext = false;
      continue;
    }
    if (joinNext || (!p.lax && !out.empty())) {
      SuperoptProgram& last = out.back();
      last.nodes.insert(last.nodes.end(), p.nodes.begin(), p.nodes.end());
      last.lax = last.lax && p.lax;
      if (!p.lax)
        for (const Node* n : p.nodes)
          last.joined += fmt::format("{}through '{}' ({})", last.joined.empty() ? "" : ", ", n->name(), n->opType());
    } else {
      out.push_back({p.nodes, p.lax, {}, mugraph::KernelGraph{}});
    }
    joinNext = !p.lax;
  }
  for (size_t i = 0; i < out.size(); ++i)
    out[i].program = mugraph::toMuGraph(out[i].nodes, fmt::format("{}_{}", graph.name, i));
  return out;
}

std::string describeProgram(const SuperoptProgram& program, size_t index) {
  std::vector<std::string> types;
  std::set<std::string> seen;
  for (const Node* n : program.nodes)
    if (seen.insert(n->opType()).second) types.push_back(n->opType());
  return fmt::format("program {}: {} ops ({}){}", index, program.nodes.size(), fmt::join(types, ", "),
                     program.joined.empty() ? "" : ", joined " + program.joined + ": float test");
}

} // namespace tcx::superopt
