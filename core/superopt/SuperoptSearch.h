#pragma once
// The μGraph superoptimizer for one program (Mirage Algorithm 1): enumerate
// kernel graphs and, for graph-defined operators, block graphs in canonical
// form; prune every prefix whose abstract expression is not a subexpression
// of the reference's; build thread graphs by rule; keep the complete
// candidates the finite-field verifier accepts; rank them by the cost model.
//
// The search is a work queue of prefixes (a kernel-graph prefix, possibly
// with a block graph under construction) drained by worker threads. Because
// the queue holds the whole frontier, a checkpoint is just the queue, the
// candidates found and the counters: an interrupted search resumes from it.
//
// A time limit bounds the whole run, not the search alone: it becomes one
// Deadline, and the search ends early enough to leave ranking (size tuning,
// the verifier's trials, GPU timing) its share of the time; ranking in turn
// stops at the deadline and says what it left undone (RankingCut).

#include "target/GpuPreset.h"
#include "mugraph/MuGraph.h"
#include "superopt/Deadline.h"
#include "superopt/SubexprChecker.h"
#include "verify/FiniteFieldVerifier.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tcx::superopt {

struct SearchOptions {
  int maxKernelOps = 5;   // kernel-level operators besides the inputs (Mirage: 5)
  int maxBlockOps = 7;    // block-level operators besides the input iterators (Mirage: 7)
  int maxGridDims = 2;    // of a block graph
  int maxForLoopDims = 1; // of a block graph
  int maxGraphInputs = 4; // operands of a graph-defined operator
  bool abstractPruning = true; // off: Table 5's "w/o abstract expression"
  bool canonicalForm = true;   // off: every operator order (Table 5's last column)
  // On: passes at growing limits (deepeningLevels), so what smaller limits
  // hold is found first; off: one depth-first pass at the full limits, as
  // Mirage searches.
  bool iterativeDeepening = true;
  double timeLimitSeconds = 0; // the whole run, search and ranking, from run()'s start; 0: none
  int64_t stateLimit = 0;      // prefixes expanded, checked between expansions (exact with one thread); 0: none
  int threads = 0;             // 0: every hardware thread
  std::string checkpointPath;  // written when the search stops early ("" : none)
  bool resume = false;         // start from checkpointPath instead of the inputs
  int verifyTop = 5;           // candidates verified past the first trial, best estimated first
  double verifySeconds = 60;   // time for the first trials, and again for the further ones (within the deadline)
  int variantsKept = 2;        // per structure (sizes aside), the best estimated are verified and kept
  // Trials are capped, by maxTrials and by verifySeconds: attention over n
  // keys has k = n^2 exponential terms and would need k ln(1/δ) trials for
  // the full bound; past the cap the verdict says which δ was reached
  // ("passed (bound not reached)"). `tcx verify` takes a candidate's file to
  // the full bound.
  verify::VerifyOptions verify{.maxTrials = 1000};
  // Measures a candidate on a GPU (microseconds); when set, the verified
  // top candidates are ranked by it. The front ends pass the GPU backend's.
  std::function<double(const mugraph::KernelGraph&)> measure;
  SolverOptions solver;
  GpuPreset preset = defaultGpuPreset();
};

struct SearchProgress {
  int64_t explored = 0;   // prefixes expanded
  int64_t pruned = 0;     // extensions rejected by the abstract-expression check
  int64_t invalid = 0;    // extensions rejected by shape, memory or axes checks
  int64_t candidates = 0; // complete μGraphs found (distinct)
  int64_t variants = 0;   // of them, differing from a better-estimated one only in grid or for-loop sizes
  int64_t slow = 0;       // of the rest, estimated over kMaxSlowdown times slower than the reference (not kept)
  int64_t verified = 0;   // of the rest, accepted by the verifier
  int64_t rejected = 0;   // of the rest, refuted by the verifier
  int64_t unchecked = 0;  // of the rest, beyond the verification budget (not kept)
  int64_t frontier = 0;   // prefixes waiting in the queue
  int kernelOps = 0, blockOps = 0; // the limits of the pass running (or the last one)
  int passesCut = 0;               // deepening passes cut short at their share of the time limit
  double elapsedSeconds = 0;
};

struct Candidate {
  mugraph::KernelGraph graph;    // thread graphs constructed
  verify::VerifyResult verdict;  // Equivalent for the top ones, PassedCapped (one trial) for the rest
  double estimatedMicros = 0;
  std::optional<double> measuredMicros; // when ranked on a GPU
  uint64_t hash = 0;                    // stableHash(graph)
  double foundAtSeconds = 0;            // search time when it was found
};

enum class StopReason { Exhausted, TimeLimit, StateLimit, Cancelled };
const char* stopReasonName(StopReason reason); // "exhausted", "time limit", ...

// With a time limit, the share of the time left when the search starts that
// it keeps back for ranking: what a first verifier trial is predicted to
// take (TrialCost.h), within these bounds. At paper shapes a trial takes
// seconds to a minute, and a search that used the whole limit left its
// candidates unranked; the search still gets a quarter of the time.
inline constexpr double kRankingShare = 0.25;
inline constexpr double kMaxRankingShare = 0.75;

// What the deadline left undone after the search, in candidates; all zero
// when ranking ran to its end. The phases run in this order, and each
// stops where the deadline leaves it no time (CandidateRanking.h).
struct RankingCut {
  int64_t untuned = 0;     // kept the grid and for-loop sizes the search found them with
  int64_t untried = 0;     // no verifier trial: not kept (counted in SearchProgress::unchecked too)
  int64_t unconfirmed = 0; // of the best, kept with one trial's verdict, without the further trials
  int64_t unmeasured = 0;  // of the best, ranked by their estimate, not timed on the GPU
  bool any() const { return untuned + untried + unconfirmed + unmeasured > 0; }
  // The first phase the deadline cut: "size tuning", "verification",
  // "further verification" or "GPU timing" ("" if none).
  const char* phase() const;
};

struct SearchResult {
  mugraph::KernelGraph reference;
  double referenceMicros = 0;      // the reference's estimate
  std::optional<double> referenceMeasuredMicros; // when options.measure is set
  std::vector<Candidate> candidates; // best first (measured if any, else estimated)
  SearchProgress progress;           // final counters
  SolverStats solver;
  StopReason stop = StopReason::Exhausted;
  bool resumed = false;
  // After the search: tuning sizes, verifying (up to twice verifySeconds)
  // and measuring the candidates, within the deadline.
  double rankingSeconds = 0;
  RankingCut cut;
};

using ProgressFn = std::function<void(const SearchProgress&)>;

// The options that shape the search space, as text ("kernel ops 5, block ops
// 7, ..."): recorded in reports, and a resumed search must match it.
std::string spaceSettings(const SearchOptions& options);

// The limits of each pass of iterative deepening, as (kernel ops, block ops):
// for each block operator limit up to maxBlockOps, one kernel operator, then
// two (fewer if the limit is lower); then one kernel operator more per pass
// up to maxKernelOps. A pass repeats its predecessors' space, a small part
// of its own as the space grows exponentially with the limits.
//
// The one-operator passes are there for one-kernel forms with large block
// graphs (RMSNorm fused into the matmul needs 6 block operators): a
// two-operator pass is depth first, so it extends every complete first
// operator with a second before it tries the next block graph, and reaches
// such a form only after minutes. A one-operator pass is a small part of the
// two-operator one's space. With a time limit, a pass that has not
// exhausted its space within half of the search's time left yields to the
// next one, keeping what it found. Without deepening, the full limits alone.
std::vector<std::pair<int, int>> deepeningLevels(const SearchOptions& options);

class SuperoptSearch {
public:
  // Raises InvalidArgument when `reference` has no outputs.
  SuperoptSearch(mugraph::KernelGraph reference, SearchOptions options = {});
  // `onProgress` is called from a worker about every 100 ms and once at the
  // end; setting `*cancel` stops the search (and writes the checkpoint).
  // The run, search and ranking, ends by `deadline` or timeLimitSeconds
  // after its start, whichever comes first (a front end searching several
  // programs passes each its share of one deadline).
  SearchResult run(const ProgressFn& onProgress = {}, const std::atomic<bool>* cancel = nullptr,
                   Deadline deadline = {}) const;

private:
  mugraph::KernelGraph reference_;
  SearchOptions options_;
};

} // namespace tcx::superopt
