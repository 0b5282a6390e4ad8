// The search's scheduling: worker threads draining the work stack,
// progress and limits, checkpoints and resuming; then the ranking.
#include "superopt/SuperoptSearch.h"

#include "mugraph/Canonical.h"
#include "mugraph/Json.h"
#include "superopt/CandidateRanking.h"
#include "superopt/SearchEngine.h"
#include "support/Error.h"

#include <limits>
#include <thread>
#include <tuple>

namespace tcx::superopt {

using namespace mugraph;

const char* stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Exhausted: return "exhausted";
  case StopReason::TimeLimit: return "time limit";
  case StopReason::StateLimit: return "state limit";
  case StopReason::Cancelled: return "cancelled";
  }
  return "?";
}

namespace detail {

void Engine::worker() {
  for (;;) {
    WorkItem item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty() || busy_ == 0; });
      if (stop_ || queue_.empty()) return;
      item = queue_.pop();
      ++busy_;
    }
    Expansion ex;
    bool done = true;
    try {
      expand(item, ex);
    } catch (const Aborted&) {
      done = false;
    }
    double now = std::chrono::duration<double>(Clock::now() - start_).count() + priorSeconds_;
    std::lock_guard lock(mutex_);
    --busy_;
    liveExplored_ -= ex.explored;
    livePruned_ -= ex.pruned;
    if (!done) {
      aborted_.explored += ex.explored;
      aborted_.pruned += ex.pruned;
      aborted_.invalid += ex.invalid;
    }
    if (done) {
      // The continuation goes below the children, and the children in
      // reverse, so the first child is expanded next.
      if (ex.continuation) queue_.push(std::move(*ex.continuation));
      for (auto it = ex.children.rbegin(); it != ex.children.rend(); ++it) queue_.push(std::move(*it));
      for (FoundCandidate& f : ex.found) {
        if (!foundHashes_.insert(stableHash(f.graph)).second) continue;
        f.foundAtSeconds = now;
        found_.push_back(std::move(f));
      }
      committed_.explored += ex.explored;
      committedExplored_ = committed_.explored;
      committed_.pruned += ex.pruned;
      committed_.invalid += ex.invalid;
    } else {
      queue_.push(std::move(item));
    }
    wake_.notify_all();
  }
}

SearchProgress Engine::snapshot() const {
  std::lock_guard lock(mutex_);
  SearchProgress p = committed_;
  p.explored += liveExplored_;
  p.pruned += livePruned_;
  p.candidates = static_cast<int64_t>(found_.size());
  p.frontier = static_cast<int64_t>(queue_.size()) + busy_;
  p.kernelOps = kernelOps_;
  p.blockOps = blockOps_;
  p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start_).count() + priorSeconds_;
  return p;
}

SearchResult Engine::run(const ProgressFn& onProgress, const std::atomic<bool>* cancel) {
  SearchResult result;
  result.reference = reference_;
  start_ = Clock::now();
  const std::vector<std::pair<int, int>> levels = deepeningLevels(options_);
  size_t level = 0;
  if (options_.resume) {
    Checkpoint c = loadCheckpoint(options_.checkpointPath);
    TCX_CHECK(c.referenceJson == toJson(reference_), ErrorKind::InvalidArgument,
              "{}: the checkpoint is of another program than '{}'", options_.checkpointPath, reference_.name());
    TCX_CHECK(c.settings == spaceSettings(options_) && c.level < levels.size(), ErrorKind::InvalidArgument,
              "{}: the checkpoint was taken with other search settings ({}; now {})", options_.checkpointPath,
              c.settings, spaceSettings(options_));
    committed_ = c.progress;
    committedExplored_ = committed_.explored;
    priorSeconds_ = c.progress.elapsedSeconds;
    level = c.level;
    found_ = std::move(c.found);
    for (const FoundCandidate& f : found_) foundHashes_.insert(stableHash(f.graph));
    std::vector<std::shared_ptr<const KernelPrefix>> restored;
    for (WorkItem& item : c.frontier) {
      // Items of one prefix share it, as they did before the checkpoint.
      auto same = std::find_if(restored.begin(), restored.end(),
                               [&](const auto& p) { return p->graph == item.prefix->graph; });
      std::shared_ptr<const KernelPrefix> prefix =
          same != restored.end() ? *same : restored.emplace_back(restorePrefix(item.prefix->graph));
      queue_.push({std::move(prefix), item.pending});
    }
    result.resumed = true;
  }

  // Each pass starts from the inputs alone; a resumed one from its frontier.
  result.stop = StopReason::Exhausted;
  for (bool first = true; level < levels.size(); ++level, first = false) {
    std::tie(kernelOps_, blockOps_) = levels[level];
    if (!(first && options_.resume)) queue_.push({std::make_shared<const KernelPrefix>(initialPrefix()), std::nullopt});
    PassEnd end = drain(onProgress, cancel, shareEnd(level, levels.size()));
    if (end.outOfShare) {
      // What the pass found is kept; the rest of its space is not searched.
      queue_ = WorkQueue();
      stop_ = false;
      ++committed_.passesCut;
      continue;
    }
    result.stop = end.reason;
    if (result.stop != StopReason::Exhausted) break;
  }
  // A pass cut short leaves its space unexhausted: the time limit stopped it.
  if (result.stop == StopReason::Exhausted && committed_.passesCut > 0) result.stop = StopReason::TimeLimit;

  SearchProgress p = snapshot();
  p.frontier = static_cast<int64_t>(queue_.size());
  if (result.stop != StopReason::Exhausted && !options_.checkpointPath.empty()) {
    Checkpoint c{toJson(reference_), spaceSettings(options_), p, level, queue_.items(), found_};
    saveCheckpoint(c, options_.checkpointPath);
  }
  p.explored += aborted_.explored;
  p.pruned += aborted_.pruned;
  p.invalid += aborted_.invalid;
  result.solver = checker_.stats();
  const Clock::time_point ranking = Clock::now();
  rankCandidates(result, found_, options_, p, onProgress);
  result.rankingSeconds = std::chrono::duration<double>(Clock::now() - ranking).count();
  result.progress = p;
  return result;
}

double Engine::shareEnd(size_t level, size_t levels) const {
  double limit = options_.timeLimitSeconds;
  if (limit <= 0 || level + 1 >= levels) return std::numeric_limits<double>::infinity();
  double now = snapshot().elapsedSeconds;
  return now + (limit - now) / 2;
}

Engine::PassEnd Engine::drain(const ProgressFn& onProgress, const std::atomic<bool>* cancel, double shareEnd) {
  unsigned n = options_.threads > 0 ? static_cast<unsigned>(options_.threads)
                                    : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < n; ++i) workers.emplace_back([this] { worker(); });

  PassEnd end;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(100), [&] { return stop_ || (queue_.empty() && busy_ == 0); });
      if (stop_) { // a worker reached the state limit (checkStop)
        end.reason = StopReason::StateLimit;
        break;
      }
      if (queue_.empty() && busy_ == 0) break;
    }
    SearchProgress p = snapshot();
    if (onProgress) onProgress(p);
    std::optional<StopReason> reason;
    if (cancel && cancel->load()) reason = StopReason::Cancelled;
    if (options_.timeLimitSeconds > 0 && p.elapsedSeconds >= options_.timeLimitSeconds) reason = StopReason::TimeLimit;
    if (reason || p.elapsedSeconds >= shareEnd) {
      if (reason)
        end.reason = *reason;
      else
        end.outOfShare = true;
      std::lock_guard lock(mutex_);
      stop_ = true;
      wake_.notify_all();
      break;
    }
  }
  for (std::thread& t : workers) t.join();
  return end;
}

} // namespace detail

SuperoptSearch::SuperoptSearch(KernelGraph reference, SearchOptions options)
    : reference_(std::move(reference)), options_(std::move(options)) {
  TCX_CHECK(reference_.outputs().size() == 1, ErrorKind::Unsupported,
            "superoptimizing '{}': the search handles programs with one output, this one has {}", reference_.name(),
            reference_.outputs().size());
}

SearchResult SuperoptSearch::run(const ProgressFn& onProgress, const std::atomic<bool>* cancel) {
  detail::Engine engine(reference_, options_);
  return engine.run(onProgress, cancel);
}

} // namespace tcx::superopt
