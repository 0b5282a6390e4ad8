#pragma once
// Who produced a report, where and when: the metadata every report carries
// so numbers in a paper can be traced to a tool version and machine.

#include <string>

namespace tcx {

struct RunInfo {
  std::string toolVersion; // "0.1.0"
  std::string gitRevision; // of the build, or "unknown"
  std::string host;
  std::string createdAt;   // ISO 8601, UTC
};

RunInfo currentRunInfo();

} // namespace tcx
