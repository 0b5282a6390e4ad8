#include "profiler/KernelBlame.h"

#include "fusion/KernelGraph.h"
#include "ir/Graph.h"

#include <fmt/format.h>

#include <regex>

namespace tcx::gpu {

std::string describePlanKernel(const PlanKernel& kernel) {
  constexpr size_t kNamed = 4;
  std::string nodes;
  const std::vector<Node*>& all = kernel.fused->nodes;
  for (size_t i = 0; i < std::min(all.size(), kNamed); ++i)
    nodes += fmt::format("{}'{}' ({})", i ? ", " : "", all[i]->name(), all[i]->opType());
  if (all.size() > kNamed) nodes += fmt::format(" and {} more", all.size() - kNamed);
  return fmt::format("kernel '{}' ({} {})", kernel.name, all.size() == 1 ? "node" : "nodes", nodes);
}

std::optional<int> planKernelAtLine(const GeneratedPlan& code, int line) {
  for (size_t k = 0; k < code.kernelSpans.size(); ++k) {
    const SourceSpan& s = code.kernelSpans[k];
    if (!s.empty() && s.firstLine <= line && line <= s.lastLine) return static_cast<int>(k);
  }
  return std::nullopt;
}

std::optional<int> firstErrorLine(std::string_view log) {
  static const std::regex errorLine(R"(\((\d+)\): (catastrophic )?error)");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_search(log.begin(), log.end(), match, errorLine)) return std::nullopt;
  return std::stoi(match[1].str());
}

} // namespace tcx::gpu
