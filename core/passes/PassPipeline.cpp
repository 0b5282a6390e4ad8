#include "passes/PassPipeline.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tcx {

void PassTimings::append(const PassTimings& other) {
  entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
}

void PassTimings::forget(const std::string& pipeline) {
  std::erase_if(entries_, [&](const PassTiming& t) { return t.pipeline == pipeline; });
}

double PassTimings::totalSeconds() const {
  double total = 0;
  for (const PassTiming& t : entries_) total += t.seconds;
  return total;
}

bool verifyEachPassByDefault() {
#ifndef NDEBUG
  return true;
#else
  const char* env = std::getenv("TCX_VERIFY_EACH_PASS");
  return env && std::strcmp(env, "1") == 0;
#endif
}

} // namespace tcx
