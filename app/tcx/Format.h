#pragma once
// Small text-formatting helpers for the CLI's human-readable output.

#include <cstdint>
#include <string>

namespace tcx::cli {

std::string formatBytes(uint64_t bytes); // "1.5 MiB"
std::string formatSeconds(double seconds); // "12.3 ms"

} // namespace tcx::cli
