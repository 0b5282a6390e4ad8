#pragma once
// Whether the search is to stop now: raised by the thread that drains the
// work (a deadline, a cancel, a deepening pass's share of the time) or by
// the workers themselves once the state limit is reached. Generation checks
// it as it goes and throws Aborted midway through an expansion, whose work
// item then goes back on the queue (WorkerPool.h). Internal to core/superopt.

#include "superopt/SearchCounters.h"

#include <atomic>
#include <cstdint>

namespace tcx::superopt::detail {

struct Aborted {};

class StopSignal {
public:
  // `stateLimit`: prefixes expanded (SearchCounters::exploredSoFar); 0: none.
  StopSignal(int64_t stateLimit, const SearchCounters& counters) : stateLimit_(stateLimit), counters_(counters) {}

  void raise() { stop_ = true; }
  void clear() { stop_ = false; }
  bool raised() const { return stop_; }

  // Throws Aborted once the search is to stop. The limit is checked here, as
  // the counts grow, so that an expansion deep in a large block space stops
  // on it too, and a one-thread search stops at the same prefix every run.
  void check() {
    if (stateLimit_ > 0 && counters_.exploredSoFar() >= stateLimit_) stop_ = true;
    if (stop_.load(std::memory_order_relaxed)) throw Aborted{};
  }

private:
  const int64_t stateLimit_;
  const SearchCounters& counters_;
  std::atomic<bool> stop_{false};
};

} // namespace tcx::superopt::detail
