#include "profiler/TimingStats.h"

#include <algorithm>
#include <cmath>

namespace tcx::gpu {
namespace {

// Linear interpolation between closest ranks (numpy's default), on sorted
// samples.
double percentile(const std::vector<double>& sorted, double fraction) {
  double position = fraction * static_cast<double>(sorted.size() - 1);
  auto below = static_cast<size_t>(std::floor(position));
  size_t above = std::min(below + 1, sorted.size() - 1);
  double weight = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * weight;
}

} // namespace

TimingStats summarize(std::vector<double> samples) {
  if (samples.empty()) return {};
  std::ranges::sort(samples);
  return TimingStats{
      .medianUs = percentile(samples, 0.5),
      .minUs = samples.front(),
      .maxUs = samples.back(),
      .p10Us = percentile(samples, 0.1),
      .p90Us = percentile(samples, 0.9),
  };
}

} // namespace tcx::gpu
