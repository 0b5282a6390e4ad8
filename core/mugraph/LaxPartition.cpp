#include "mugraph/LaxPartition.h"

#include "mugraph/Conversion.h"

#include <algorithm>
#include <unordered_map>

namespace tcx::mugraph {

std::vector<LaxSubprogram> partitionLax(const Graph& graph) {
  std::vector<LaxSubprogram> parts;
  LaxSubprogram current;
  std::unordered_map<const Value*, int> depth; // exps on the longest path inside `current`
  auto close = [&](std::string why) {
    if (current.nodes.empty()) return;
    current.cut = std::move(why);
    parts.push_back(std::move(current));
    current = {};
    depth.clear();
  };
  for (const Node* n : graph.nodes()) {
    NodeClass c = classifyNode(*n);
    if (!c.lax) {
      close("next: " + n->describe() + ": " + c.reason);
      parts.push_back({{n}, false, c.reason, c.exps});
      continue;
    }
    int d = 0;
    for (const Value* v : n->inputs())
      if (auto it = depth.find(v); it != depth.end()) d = std::max(d, it->second);
    if (d + c.exps > 1) {
      close("next: " + n->describe() + " would be a second exponentiation on a path");
      d = 0;
    }
    current.nodes.push_back(n);
    for (const Value* v : n->outputs()) depth[v] = d + c.exps;
    current.exps = std::max(current.exps, d + c.exps);
  }
  close("end of graph");
  return parts;
}

} // namespace tcx::mugraph
