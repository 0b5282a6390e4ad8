// The search's passes of iterative deepening, each drained by the worker
// pool; the deadline shared out among them; checkpoints and resuming; then
// the ranking.
#include "superopt/SuperoptSearch.h"

#include "mugraph/Json.h"
#include "superopt/CandidateRanking.h"
#include "superopt/SearchCounters.h"
#include "superopt/SearchGenerator.h"
#include "superopt/SearchStop.h"
#include "superopt/TrialCost.h"
#include "superopt/WorkerPool.h"
#include "support/Error.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace tcx::superopt {

const char* stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Exhausted: return "exhausted";
  case StopReason::TimeLimit: return "time limit";
  case StopReason::StateLimit: return "state limit";
  case StopReason::Cancelled: return "cancelled";
  }
  return "?";
}

const char* RankingCut::phase() const {
  if (untuned > 0) return "size tuning";
  if (untried > 0) return "verification";
  if (unconfirmed > 0) return "further verification";
  if (unmeasured > 0) return "GPU timing";
  return "";
}

namespace {

using detail::SearchGenerator;
using detail::WorkerPool;

// Loads the checkpoint a resumed search starts from into `pool`; returns the
// pass it belongs to.
size_t resumeFrom(const SearchOptions& options, const mugraph::KernelGraph& reference, size_t levels,
                  const SearchGenerator& generator, detail::SearchCounters& counters, WorkerPool& pool) {
  Checkpoint c = loadCheckpoint(options.checkpointPath);
  TCX_CHECK(c.referenceJson == mugraph::toJson(reference), ErrorKind::InvalidArgument,
            "{}: the checkpoint is of another program than '{}'", options.checkpointPath, reference.name());
  TCX_CHECK(c.settings == spaceSettings(options) && c.level < levels, ErrorKind::InvalidArgument,
            "{}: the checkpoint was taken with other search settings ({}; now {})", options.checkpointPath,
            c.settings, spaceSettings(options));
  counters.restore(c.progress);
  pool.setPriorSeconds(c.progress.elapsedSeconds);
  for (FoundCandidate& f : c.found) pool.found().add(std::move(f));
  std::vector<std::shared_ptr<const KernelPrefix>> restored;
  for (WorkItem& item : c.frontier) {
    // Items of one prefix share it, as they did before the checkpoint.
    auto same = std::find_if(restored.begin(), restored.end(),
                             [&](const auto& p) { return p->graph == item.prefix->graph; });
    std::shared_ptr<const KernelPrefix> prefix =
        same != restored.end() ? *same : restored.emplace_back(generator.restorePrefix(item.prefix->graph));
    pool.queue().push({std::move(prefix), item.pending});
  }
  return c.level;
}

// The time the search keeps back for ranking out of `seconds`: a first
// trial (TrialCost::firstTrial) after size tuning, which may take a third
// of ranking's time (CandidateRanking.h); at least kRankingShare of the time
// and at most kMaxRankingShare.
double rankingReserve(const TrialCost& cost, const mugraph::KernelGraph& reference, double seconds) {
  return std::clamp(cost.firstTrial(reference) * 3 / 2, kRankingShare * seconds, kMaxRankingShare * seconds);
}

} // namespace

SuperoptSearch::SuperoptSearch(mugraph::KernelGraph reference, SearchOptions options)
    : reference_(std::move(reference)), options_(std::move(options)) {
  TCX_CHECK(reference_.outputs().size() == 1, ErrorKind::Unsupported,
            "superoptimizing '{}': the search handles programs with one output, this one has {}", reference_.name(),
            reference_.outputs().size());
}

SearchResult SuperoptSearch::run(const ProgressFn& onProgress, const std::atomic<bool>* cancel,
                                 Deadline deadline) const {
  const Deadline end = deadline.earliest(Deadline::after(options_.timeLimitSeconds));
  detail::SearchCounters counters;
  detail::StopSignal stop(options_.stateLimit, counters);
  SearchGenerator generator(reference_, options_, counters, stop);
  WorkerPool pool(generator, counters, stop, options_.threads);
  // With a deadline, one model of trial costs plans the search's reserve
  // and then ranking's trials, so that ranking deems the trial the search
  // kept time for to fit.
  std::optional<TrialCost> trialCost;
  if (end.bounded()) trialCost.emplace(reference_, options_.verify, options_.threads, options_.preset);
  Deadline searchEnd = trialCost ? end.sooner(rankingReserve(*trialCost, reference_, end.secondsLeft())) : end;

  SearchResult result;
  result.reference = reference_;
  const std::vector<std::pair<int, int>> levels = deepeningLevels(options_);
  size_t level = 0;
  if (options_.resume) {
    level = resumeFrom(options_, reference_, levels.size(), generator, counters, pool);
    result.resumed = true;
  }

  // Each pass starts from the inputs alone; a resumed one from its frontier.
  // With a time limit, each but the last yields once it has used half of
  // the search's time left, so that a pass whose space is too large for the
  // limit leaves the deeper ones a turn. Halves, not equal shares: the space
  // grows exponentially with the limits, so the shallower passes are the
  // ones that can finish, and the deeper ones still get some time.
  // A search that has found nothing by its end leaves ranking nothing to
  // do: it goes on, in the same pass, into the time kept back for ranking,
  // until it finds something.
  bool intoRanking = false;
  result.stop = StopReason::Exhausted;
  for (bool first = true; level < levels.size(); ++level, first = false) {
    generator.setPassLimits(levels[level].first, levels[level].second);
    if (!(first && options_.resume))
      pool.queue().push({std::make_shared<const KernelPrefix>(generator.initialPrefix()), std::nullopt});
    WorkerPool::DrainEnd drained;
    for (;;) {
      const Deadline passEnd = level + 1 < levels.size() ? searchEnd.share(0.5) : searchEnd;
      drained = pool.drain(onProgress, cancel, searchEnd, passEnd, intoRanking);
      if (drained.reason != StopReason::TimeLimit || intoRanking || pool.found().size() > 0 || searchEnd == end)
        break;
      searchEnd = end;
      intoRanking = true;
      stop.clear();
    }
    if (drained.outOfShare) {
      // What the pass found is kept; the rest of its space is not searched.
      pool.queue() = WorkQueue();
      stop.clear();
      counters.countPassCut();
      continue;
    }
    result.stop = drained.reason;
    if (result.stop != StopReason::Exhausted) break;
  }
  // A pass cut short leaves its space unexhausted: the time limit stopped it.
  if (result.stop == StopReason::Exhausted && counters.passesCut() > 0) result.stop = StopReason::TimeLimit;

  SearchProgress p = pool.snapshot();
  p.frontier = static_cast<int64_t>(pool.queue().size());
  if (result.stop != StopReason::Exhausted && !options_.checkpointPath.empty()) {
    Checkpoint c{mugraph::toJson(reference_), spaceSettings(options_), p, level, pool.queue().items(),
                 pool.found().all()};
    saveCheckpoint(c, options_.checkpointPath);
  }
  p = counters.withAborted(p);
  result.solver = generator.solverStats();
  const Deadline::Clock::time_point ranking = Deadline::Clock::now();
  rankCandidates(result, pool.found().all(), options_, p, onProgress, end, trialCost ? &*trialCost : nullptr);
  result.rankingSeconds = std::chrono::duration<double>(Deadline::Clock::now() - ranking).count();
  result.progress = p;
  return result;
}

} // namespace tcx::superopt
