#pragma once
// The SQLite report of a data-movement elimination run (schema in
// docs/report-schema.md). Written in one transaction into a temporary file
// that is renamed over FILE only once complete: a crash or a bad input never
// leaves a half-written or clobbered report.

#include "pipeline/VtcSession.h"

#include <string>

namespace tcx {

inline constexpr int kReportSchemaVersion = 6;

struct ReportContext {
  std::string modelPath;
  std::string commandLine;
};

void writeVtcReport(const std::string& path, const VtcSession& session, const ReportContext& context);

} // namespace tcx
