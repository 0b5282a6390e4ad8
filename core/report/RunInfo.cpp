#include "report/RunInfo.h"

#include <ctime>
#include <unistd.h>

namespace tcx {

RunInfo currentRunInfo() {
  RunInfo info;
  info.toolVersion = TCX_VERSION;
  info.gitRevision = TCX_GIT_REVISION;
  char host[256] = {};
  info.host = gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  info.createdAt = buf;
  return info;
}

} // namespace tcx
