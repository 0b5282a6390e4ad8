#include "profiler/Trace.h"

#include "support/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace tcx::gpu {

std::string chromeTraceJson(std::span<const KernelRecord> kernels, const std::string& processName) {
  using nlohmann::json;
  uint64_t origin = kernels.empty() ? 0 : std::ranges::min(kernels, {}, &KernelRecord::startNs).startNs;
  json events = json::array();
  events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 0}, {"args", {{"name", processName}}}});
  for (const KernelRecord& kernel : kernels) {
    events.push_back({
        {"ph", "X"},
        {"name", kernel.name},
        {"cat", "kernel"},
        {"pid", 0},
        {"tid", kernel.streamId},
        {"ts", static_cast<double>(kernel.startNs - origin) / 1000.0},
        {"dur", kernel.durationUs()},
        {"args",
         {{"grid", kernel.grid},
          {"block", kernel.block},
          {"shared_bytes", kernel.sharedBytes},
          {"registers_per_thread", kernel.registersPerThread},
          {"correlation_id", kernel.correlationId},
          {"graph_id", kernel.graphId}}},
    });
  }
  return json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}}.dump(1);
}

void writeChromeTrace(const std::string& path, std::span<const KernelRecord> kernels,
                      const std::string& processName) {
  writeFileAtomically(path, chromeTraceJson(kernels, processName));
}

} // namespace tcx::gpu
