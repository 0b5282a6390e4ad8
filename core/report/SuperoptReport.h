#pragma once
// The report of `tcx superopt` (schema in docs/report-schema.md): one
// `superopt_searches` row per program searched, one `superopt_candidates`
// row per verified candidate, best first, with its μGraph as JSON.

#include "report/VtcReport.h"
#include "superopt/SuperoptSearch.h"
#include "superopt/Superoptimize.h"

#include <string>
#include <vector>

namespace tcx {

struct SuperoptRun {
  const superopt::SuperoptProgram* program = nullptr;
  superopt::SearchResult result;
  std::string settings;
};

void writeSuperoptReport(const std::string& path, const Graph& graph, const std::vector<SuperoptRun>& runs,
                         const ReportContext& context);

} // namespace tcx
