#pragma once
// The search's counts of prefixes explored, extensions pruned and
// extensions invalid (SearchProgress), kept three ways:
// - committed: the work of expansions that completed, what a checkpoint
//   holds, since a resumed search does not redo it;
// - live: expansions still running add to these as they go and take their
//   counts back when they end, so progress reports move during a long
//   expansion and the state limit stops one deep in a large block space;
// - aborted: the work of expansions a stop cut short, done in this run and
//   reported, but not checkpointed, since a resumed search does it again.
// Internal to core/superopt.

#include "superopt/SuperoptSearch.h"

#include <atomic>
#include <cstdint>

namespace tcx::superopt::detail {

// One expansion's own counts, committed or set apart with it.
struct ExpansionCounts {
  int64_t explored = 0, pruned = 0, invalid = 0;
};

class SearchCounters {
public:
  // As an expansion goes, from its worker: its own count and the live one.
  void countExplored(ExpansionCounts& own) {
    ++own.explored;
    ++liveExplored_;
  }
  void countPruned(ExpansionCounts& own) {
    ++own.pruned;
    ++livePruned_;
  }
  // Prefixes expanded, committed and live, read without a lock: what the
  // state limit counts.
  int64_t exploredSoFar() const {
    return committedExplored_.load(std::memory_order_relaxed) + liveExplored_.load(std::memory_order_relaxed);
  }

  // The rest is called under the lock of the WorkerPool that commits.
  // A checkpoint's counts, where a resumed search starts from.
  void restore(const SearchProgress& committed) {
    committed_ = committed;
    committedExplored_ = committed_.explored;
  }
  // An expansion ended: its live counts are taken back, and committed if it
  // completed, else set apart.
  void commit(const ExpansionCounts& c) {
    takeBack(c);
    add(committed_, c);
    committedExplored_ = committed_.explored;
  }
  void abort(const ExpansionCounts& c) {
    takeBack(c);
    add(aborted_, c);
  }
  // A deepening pass cut short at its share of the time.
  void countPassCut() { ++committed_.passesCut; }
  int passesCut() const { return committed_.passesCut; }

  // Committed and live: what progress reports and checkpoints show (no
  // expansion is live once the workers have stopped).
  SearchProgress progress() const {
    SearchProgress p = committed_;
    p.explored += liveExplored_;
    p.pruned += livePruned_;
    return p;
  }
  // `p` with the work of the expansions a stop cut short: what a run
  // reports at its end.
  SearchProgress withAborted(SearchProgress p) const {
    p.explored += aborted_.explored;
    p.pruned += aborted_.pruned;
    p.invalid += aborted_.invalid;
    return p;
  }

private:
  void takeBack(const ExpansionCounts& c) {
    liveExplored_ -= c.explored;
    livePruned_ -= c.pruned;
  }
  static void add(SearchProgress& p, const ExpansionCounts& c) {
    p.explored += c.explored;
    p.pruned += c.pruned;
    p.invalid += c.invalid;
  }
  static void add(ExpansionCounts& a, const ExpansionCounts& c) {
    a.explored += c.explored;
    a.pruned += c.pruned;
    a.invalid += c.invalid;
  }

  SearchProgress committed_;
  ExpansionCounts aborted_;
  std::atomic<int64_t> liveExplored_{0}, livePruned_{0};
  std::atomic<int64_t> committedExplored_{0}; // committed_.explored, read without the lock
};

} // namespace tcx::superopt::detail
