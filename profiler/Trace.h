#pragma once
// One run's kernels as a Chrome trace (chrome://tracing, ui.perfetto.dev):
// a complete ("ph": "X") event per kernel, on one track per stream, with
// times in microseconds from the first kernel's start.

#include "profiler/KernelActivity.h"

#include <span>
#include <string>

namespace tcx::gpu {

// The trace as JSON text; `processName` labels the process track ("tcx:
// llama3_8b_decode (greedy)").
std::string chromeTraceJson(std::span<const KernelRecord> kernels, const std::string& processName);

// Writes chromeTraceJson() to `path` atomically; raises Io on failure.
void writeChromeTrace(const std::string& path, std::span<const KernelRecord> kernels,
                      const std::string& processName);

} // namespace tcx::gpu
