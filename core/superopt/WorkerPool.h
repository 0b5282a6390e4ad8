#pragma once
// The threads that drain the search's work stack (SearchFrontier.h). Each
// takes the top item, expands it (SearchGenerator.h) and commits the
// expansion under one lock: its children on top of the stack, in order, so
// the search stays depth first; its candidates to those found; its counts
// (SearchCounters.h). An expansion a stop cuts short commits nothing, and its
// item goes back on the stack unchanged, which is what makes a checkpoint
// exact. Internal to core/superopt.

#include "superopt/Deadline.h"
#include "superopt/SearchCounters.h"
#include "superopt/SearchFrontier.h"
#include "superopt/SearchGenerator.h"
#include "superopt/SearchStop.h"
#include "superopt/SuperoptSearch.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace tcx::superopt::detail {

class WorkerPool {
public:
  // `threads`: 0 for every hardware thread.
  WorkerPool(SearchGenerator& generator, SearchCounters& counters, StopSignal& stop, int threads);

  // How draining ended: the stack empty (Exhausted), stopped for a reason,
  // or at `passEnd`: the pass yields to the next one (outOfShare).
  struct DrainEnd {
    StopReason reason = StopReason::Exhausted;
    bool outOfShare = false;
  };
  // Runs the workers until the stack is empty, a limit or `cancel` stops
  // them, or a deadline passes: `searchEnd` stops the search, `passEnd` (no
  // later) only the pass. With `untilFound`, the search also stops (as at
  // its time limit) once it has found a candidate. Calls `onProgress` about
  // every 100 ms.
  DrainEnd drain(const ProgressFn& onProgress, const std::atomic<bool>* cancel, const Deadline& searchEnd,
                 const Deadline& passEnd, bool untilFound);

  // Between drains, with no worker running.
  WorkQueue& queue() { return queue_; }
  FoundCandidates& found() { return found_; }
  // The search time a resumed search had spent before this run.
  void setPriorSeconds(double seconds) { priorSeconds_ = seconds; }

  // The counters, the stack and the time, at any moment.
  SearchProgress snapshot() const;

private:
  void work();
  double elapsedSeconds() const {
    return std::chrono::duration<double>(Deadline::Clock::now() - start_).count() + priorSeconds_;
  }

  SearchGenerator& generator_;
  SearchCounters& counters_;
  StopSignal& stop_;
  const unsigned threads_;
  const Deadline::Clock::time_point start_;
  double priorSeconds_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  WorkQueue queue_;
  FoundCandidates found_;
  int busy_ = 0;
};

} // namespace tcx::superopt::detail
