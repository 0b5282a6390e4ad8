#include "superopt/WorkerPool.h"

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

namespace tcx::superopt::detail {

WorkerPool::WorkerPool(SearchGenerator& generator, SearchCounters& counters, StopSignal& stop, int threads)
    : generator_(generator), counters_(counters), stop_(stop),
      threads_(threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency())),
      start_(Deadline::Clock::now()) {}

void WorkerPool::work() {
  for (;;) {
    WorkItem item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_.raised() || !queue_.empty() || busy_ == 0; });
      if (stop_.raised() || queue_.empty()) return;
      item = queue_.pop();
      ++busy_;
    }
    Expansion ex;
    bool done = true;
    try {
      generator_.expand(item, ex);
    } catch (const Aborted&) {
      done = false;
    }
    double now = elapsedSeconds();
    std::lock_guard lock(mutex_);
    --busy_;
    if (done) {
      // The continuation goes below the children, and the children in
      // reverse, so the first child is expanded next.
      if (ex.continuation) queue_.push(std::move(*ex.continuation));
      for (auto it = ex.children.rbegin(); it != ex.children.rend(); ++it) queue_.push(std::move(*it));
      for (FoundCandidate& f : ex.found) {
        f.foundAtSeconds = now;
        found_.add(std::move(f));
      }
      counters_.commit(ex.counts);
    } else {
      counters_.abort(ex.counts);
      queue_.push(std::move(item));
    }
    wake_.notify_all();
  }
}

SearchProgress WorkerPool::snapshot() const {
  std::lock_guard lock(mutex_);
  SearchProgress p = counters_.progress();
  p.candidates = static_cast<int64_t>(found_.size());
  p.frontier = static_cast<int64_t>(queue_.size()) + busy_;
  p.kernelOps = generator_.kernelOps();
  p.blockOps = generator_.blockOps();
  p.elapsedSeconds = elapsedSeconds();
  return p;
}

WorkerPool::DrainEnd WorkerPool::drain(const ProgressFn& onProgress, const std::atomic<bool>* cancel,
                                       const Deadline& searchEnd, const Deadline& passEnd, bool untilFound) {
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < threads_; ++i) workers.emplace_back([this] { work(); });

  DrainEnd end;
  for (;;) {
    {
      // Until the next progress report, or the pass's end if sooner: a pass
      // that yields at 20 ms left must not run to 100.
      std::unique_lock lock(mutex_);
      wake_.wait_until(lock, std::min(Deadline::Clock::now() + std::chrono::milliseconds(100), passEnd.at()),
                       [&] { return stop_.raised() || (queue_.empty() && busy_ == 0); });
      if (stop_.raised()) { // a worker reached the state limit (StopSignal::check)
        end.reason = StopReason::StateLimit;
        break;
      }
      if (queue_.empty() && busy_ == 0) break;
    }
    SearchProgress p = snapshot();
    if (onProgress) onProgress(p);
    std::optional<StopReason> reason;
    if (cancel && cancel->load()) reason = StopReason::Cancelled;
    if (searchEnd.passed() || (untilFound && p.candidates > 0)) reason = StopReason::TimeLimit;
    if (reason || passEnd.passed()) {
      if (reason)
        end.reason = *reason;
      else
        end.outOfShare = true;
      std::lock_guard lock(mutex_);
      stop_.raise();
      wake_.notify_all();
      break;
    }
  }
  for (std::thread& t : workers) t.join();
  return end;
}

} // namespace tcx::superopt::detail
