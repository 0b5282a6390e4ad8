#pragma once
// How every report is written: into FILE.tmp.<pid> in one transaction, with
// the full schema, then renamed over FILE; on any failure the temporary is
// removed and FILE is untouched.

#include "report/Sqlite.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tcx {

void writeReportAtomically(const std::string& path, const std::function<void(SqliteDb&)>& fill);

// The meta rows every report has (schema version, tool, revision, host,
// time, command), then `extra`.
void writeReportMeta(SqliteDb& db, const std::string& commandLine,
                     const std::vector<std::pair<std::string, std::string>>& extra);

} // namespace tcx
