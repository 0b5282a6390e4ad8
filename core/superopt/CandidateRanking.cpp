#include "superopt/CandidateRanking.h"

#include "mugraph/Canonical.h"
#include "superopt/ExprNormalForm.h"
#include "superopt/MuGraphCost.h"
#include "superopt/SizeTuning.h"
#include "superopt/ThreadGraphConstruction.h"
#include "support/Error.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <map>
#include <numeric>
#include <set>
#include <thread>

namespace tcx::superopt {

using namespace mugraph;

namespace {

// What size tuning may use of the time left when it starts (the header says
// why).
constexpr double kTuningShare = 1.0 / 3;

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<uint64_t>(v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  void add(const std::vector<int>& v) {
    add(static_cast<int64_t>(v.size()));
    for (int x : v) add(x);
  }
};

void hashStructure(const OperatorGraph& g, Fnv& f) {
  for (const Operator& op : g.ops()) {
    f.add(static_cast<int64_t>(op.type));
    for (TensorRef t : op.inputs) f.add(t.op), f.add(t.output);
    f.add(op.inputIndex), f.add(op.dim), f.add(static_cast<int64_t>(op.shape.size()));
    f.add(op.imap), f.add(op.omap), f.add(op.fmap);
    f.add(std::bit_cast<int64_t>(op.value)); // a constant, or an epsilon: not a size
    if (op.body) hashStructure(*op.body, f);
  }
}

struct Ranked {
  Candidate candidate;
  uint64_t structure = 0;
  bool passed = false;
};

// Runs `work(i)` for i in [0, n) on `threads` threads.
void parallelFor(size_t n, int threads, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  unsigned t = threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < std::min<size_t>(t, n); ++i)
    pool.emplace_back([&] {
      for (size_t k; (k = next++) < n;) work(k);
    });
  for (std::thread& th : pool) th.join();
}

// The verifier raises when the programs cannot be compared at all; for a
// candidate that is a rejection like any other.
verify::VerifyResult verifyOrReject(const verify::VerifyOptions& options, const KernelGraph& reference,
                                    const KernelGraph& candidate) {
  try {
    return verify::FiniteFieldVerifier(options).verify(reference, candidate);
  } catch (const Error&) {
    verify::VerifyResult r;
    r.verdict = verify::Verdict::NotEquivalent;
    return r;
  }
}

} // namespace

uint64_t structureHash(const KernelGraph& graph) {
  Fnv f;
  hashStructure(graph, f);
  return f.h;
}

void rankCandidates(SearchResult& result, const std::vector<FoundCandidate>& found, const SearchOptions& options,
                    SearchProgress& progress, const ProgressFn& onProgress, const Deadline& deadline,
                    TrialCost* trialCost) {
  result.referenceMicros = estimateCost(result.reference, options.preset).micros;
  // The search found each with its size class's representative partitions.
  const AxisAnalysis axes(result.reference);
  const PartitionLimits limits = PartitionLimits::of(options.preset, options.maxGridDims, options.maxForLoopDims);
  std::vector<SizeTuning> tuned(found.size());
  const Deadline tuningEnd = deadline.share(kTuningShare);
  parallelFor(found.size(), options.threads, [&](size_t i) {
    tuned[i] = tuneSizes(found[i].graph, axes, limits, options.preset, tuningEnd);
  });
  result.cut.untuned = std::ranges::count_if(tuned, &SizeTuning::cut);
  std::vector<Ranked> ranked;
  // Tuning can make two candidates one.
  std::set<uint64_t> seen;
  for (size_t i = 0; i < found.size(); ++i) {
    uint64_t h = stableHash(tuned[i].graph);
    if (!seen.insert(h).second) continue;
    Ranked r;
    r.candidate.graph = constructThreadGraphs(tuned[i].graph);
    r.candidate.hash = h;
    r.candidate.foundAtSeconds = found[i].foundAtSeconds;
    r.candidate.estimatedMicros = estimateCost(r.candidate.graph, options.preset).micros;
    r.structure = structureHash(tuned[i].graph);
    ranked.push_back(std::move(r));
  }
  progress.candidates = static_cast<int64_t>(ranked.size());
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return a.candidate.estimatedMicros < b.candidate.estimatedMicros;
  });
  std::map<uint64_t, int> perStructure;
  std::vector<Ranked> kept;
  for (Ranked& r : ranked)
    if (perStructure[r.structure]++ < options.variantsKept) kept.push_back(std::move(r));
  progress.variants = progress.candidates - static_cast<int64_t>(kept.size());
  // A trial costs what the candidate computes, and one that redoes work in
  // every block (an input replicated over a large grid) takes minutes at
  // paper shapes; no ranking would pick it, so it gets no trial.
  progress.slow = std::erase_if(
      kept, [&](const Ranked& r) { return r.candidate.estimatedMicros > kMaxSlowdown * result.referenceMicros; });
  // Trials go first to candidates whose expression equals the reference's
  // under A_eq (same normal form): what a chain of Table 2's rewrites
  // reaches. The others (abstract expressions forget which index a sum
  // runs over) are mostly not equivalent, and a trial at paper shapes takes
  // seconds.
  std::vector<size_t> trialOrder(kept.size());
  std::iota(trialOrder.begin(), trialOrder.end(), size_t{0});
  {
    std::optional<NormalFormRef> target = normalForm(outputExpr(result.reference));
    std::vector<char> sameForm(kept.size(), 0);
    for (size_t i = 0; i < kept.size(); ++i) {
      std::optional<NormalFormRef> form = normalForm(outputExpr(kept[i].candidate.graph));
      sameForm[i] = target && form && (*form)->key() == (*target)->key();
    }
    std::stable_partition(trialOrder.begin(), trialOrder.end(), [&](size_t i) { return sameForm[i] != 0; });
  }

  // One trial for every kept candidate, in trialOrder, in parallel, started
  // within verifySeconds (a trial at paper shapes takes seconds, and a long
  // search finds hundreds) if predicted to end by the deadline (with a GPU
  // to time the best, by half of what is left); the same seed for all, so
  // each sees the same ω and inputs. Candidates neither reaches are not kept.
  verify::VerifyOptions once = options.verify;
  once.maxTrials = 1;
  std::atomic<int64_t> verified{0}, rejected{0}, unchecked{0}, untried{0};
  const auto start = std::chrono::steady_clock::now();
  const Deadline trialsEnd = options.measure ? deadline.share(0.5) : deadline;
  std::optional<TrialCost> measured;
  TrialCost* cost = trialCost;
  if (!cost && trialsEnd.bounded() && !kept.empty())
    cost = &measured.emplace(result.reference, options.verify, options.threads, options.preset);
  parallelFor(kept.size(), options.threads, [&](size_t k) {
    size_t i = trialOrder[k];
    const KernelGraph& graph = kept[i].candidate.graph;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > options.verifySeconds) {
      ++unchecked;
      return;
    }
    if (cost && !trialsEnd.fits(cost->predict(result.reference, graph))) {
      ++unchecked;
      ++untried;
      return;
    }
    kept[i].candidate.verdict = verifyOrReject(once, result.reference, graph);
    if (cost) cost->observe(result.reference, graph, kept[i].candidate.verdict.seconds);
    kept[i].passed = kept[i].candidate.verdict.verdict != verify::Verdict::NotEquivalent;
    ++(kept[i].passed ? verified : rejected);
  });
  progress.verified = verified;
  progress.rejected = rejected;
  progress.unchecked = unchecked;
  result.cut.untried = untried;
  if (onProgress) onProgress(progress);

  std::vector<Candidate> out;
  for (Ranked& r : kept)
    if (r.passed) out.push_back(std::move(r.candidate));
  // The full bound for the best, with what the first trials left; a failure
  // there drops the candidate. With a GPU to time them, the further trials
  // leave it half of what is left.
  size_t top = std::min(out.size(), static_cast<size_t>(std::max(0, options.verifyTop)));
  const Deadline furtherEnd = options.measure ? deadline.share(0.5) : deadline;
  // Each gets an equal share of the time, in trials as long as its first.
  double share =
      std::min(options.verifySeconds, furtherEnd.secondsLeft()) / static_cast<double>(std::max<size_t>(top, 1));
  std::atomic<int64_t> unconfirmed{0};
  parallelFor(top, options.threads, [&](size_t i) {
    double trialSeconds = std::max(out[i].verdict.seconds, 1e-6);
    // One that no trial fits any more keeps its first trial's verdict.
    if (!furtherEnd.fits(trialSeconds)) {
      ++unconfirmed;
      return;
    }
    verify::VerifyOptions o = options.verify;
    double seconds = std::min(share, furtherEnd.secondsLeft());
    o.maxTrials = std::clamp<int64_t>(static_cast<int64_t>(seconds / trialSeconds), 1, options.verify.maxTrials);
    out[i].verdict = verifyOrReject(o, result.reference, out[i].graph);
  });
  result.cut.unconfirmed = unconfirmed;
  int64_t dropped =
      std::erase_if(out, [](const Candidate& c) { return c.verdict.verdict == verify::Verdict::NotEquivalent; });
  progress.verified -= dropped;
  progress.rejected += dropped;
  if (options.measure) {
    // The reference first, for the speedups; then the best, while the
    // deadline leaves time for a timing as long as the longest so far.
    double longestTiming = 0;
    auto timeLeft = [&] { return deadline.fits(longestTiming); };
    auto measure = [&](const KernelGraph& g) -> std::optional<double> {
      const auto began = std::chrono::steady_clock::now();
      std::optional<double> micros;
      try {
        micros = options.measure(g);
      } catch (const Error&) {
        // A program the GPU backend cannot run keeps its estimate only.
      }
      longestTiming =
          std::max(longestTiming, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
      return micros;
    };
    if (timeLeft()) result.referenceMeasuredMicros = measure(result.reference);
    for (size_t i = 0; i < std::min(out.size(), top); ++i) {
      if (!timeLeft()) {
        ++result.cut.unmeasured;
        continue;
      }
      out[i].measuredMicros = measure(out[i].graph);
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      double x = a.measuredMicros.value_or(1e300), y = b.measuredMicros.value_or(1e300);
      return x != y ? x < y : a.estimatedMicros < b.estimatedMicros;
    });
  }
  result.candidates = std::move(out);
}

} // namespace tcx::superopt
