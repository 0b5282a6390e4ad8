#include "report/ReportFile.h"

#include "report/ReportSchema.h"
#include "report/RunInfo.h"
#include "report/VtcReport.h"
#include "support/Error.h"

#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

namespace tcx {

void writeReportAtomically(const std::string& path, const std::function<void(SqliteDb&)>& fill) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  std::filesystem::remove(tmp);
  try {
    {
      SqliteDb db(tmp);
      db.exec("BEGIN");
      db.exec(kReportSchemaSql);
      fill(db);
      db.exec("COMMIT");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    TCX_CHECK(!ec, ErrorKind::Io, "cannot write report '{}': {}", path, ec.message());
  } catch (...) {
    std::filesystem::remove(tmp);
    throw;
  }
}

void writeReportMeta(SqliteDb& db, const std::string& commandLine,
                     const std::vector<std::pair<std::string, std::string>>& extra) {
  RunInfo info = currentRunInfo();
  SqliteStatement st(db, "INSERT INTO meta VALUES (?, ?)");
  std::pair<std::string, std::string> rows[] = {
      {"schema_version", std::to_string(kReportSchemaVersion)},
      {"tool", "tcx"},
      {"tool_version", info.toolVersion},
      {"git_revision", info.gitRevision},
      {"host", info.host},
      {"created_at", info.createdAt},
      {"command", commandLine},
  };
  for (const auto& [k, v] : rows) st.bind(k).bind(v).run();
  for (const auto& [k, v] : extra) st.bind(k).bind(v).run();
}

} // namespace tcx
