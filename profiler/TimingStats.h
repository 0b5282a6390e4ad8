#pragma once
// Summary of one quantity measured over repetitions. Medians and the
// 10th-90th percentile range, as ../shared/bench/torch_baselines.py reports
// them, so tcx's numbers and the PyTorch baselines compare directly.

#include <vector>

namespace tcx::gpu {

struct TimingStats {
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  double p10Us = 0;
  double p90Us = 0;

  // The spread over repetitions: p90 - p10.
  double spreadUs() const { return p90Us - p10Us; }
};

// Summarises `samples` (microseconds); all zero when there are none.
TimingStats summarize(std::vector<double> samples);

} // namespace tcx::gpu
