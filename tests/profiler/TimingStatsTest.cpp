#include "profiler/TimingStats.h"

#include <catch2/catch.hpp>

using namespace tcx::gpu;

TEST_CASE("timing statistics: median, extremes and the p10-p90 spread", "[profiler]") {
  TimingStats stats = summarize({5, 1, 4, 2, 3, 10, 6, 7, 9, 8, 11});
  CHECK(stats.medianUs == Approx(6));
  CHECK(stats.minUs == 1);
  CHECK(stats.maxUs == 11);
  CHECK(stats.p10Us == Approx(2));
  CHECK(stats.p90Us == Approx(10));
  CHECK(stats.spreadUs() == Approx(8));

  TimingStats even = summarize({4, 1, 3, 2});
  CHECK(even.medianUs == Approx(2.5));

  TimingStats none = summarize({});
  CHECK(none.medianUs == 0);
  CHECK(none.maxUs == 0);
}
