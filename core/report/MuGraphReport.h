#pragma once
// Reports of the μGraph commands (schema in docs/report-schema.md): one
// `verifications` row per `tcx verify`, one `lax_subprograms` row per LAX
// subprogram of `tcx lax`. Written atomically, like every report.

#include "mugraph/LaxPartition.h"
#include "report/Sqlite.h"
#include "report/VtcReport.h"
#include "verify/FiniteFieldVerifier.h"

#include <string>

namespace tcx {

void writeVerifyReport(const std::string& path, const std::string& programA, const std::string& programB,
                       const verify::VerifyResult& result, const std::string& commandLine);

// The `model` row of a report about `graph` (the μGraph and superopt reports).
void writeModelRow(SqliteDb& db, const Graph& graph, const ReportContext& context);

void writeLaxReport(const std::string& path, const Graph& graph, const std::vector<mugraph::LaxSubprogram>& parts,
                    const ReportContext& context);

} // namespace tcx
