// A time limit bounds a whole superoptimization, not the search alone: the
// search leaves ranking the time a first trial needs, ranking stops at the
// deadline, and what was verified in time is kept. A verifier trial cannot
// be interrupted and takes seconds at paper shapes, so a ranking that
// ignored the deadline would outlast it by many seconds.
#include "Programs.h"

#include "superopt/CandidateRanking.h"
#include "superopt/Deadline.h"
#include "superopt/SuperoptSearch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::superopt;

namespace {

using Clock = Deadline::Clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A LoRA whose trials take about a second on the 2-core VM (a sixteenth of
// samples/lora.onnx's).
const testing::LoraShape kLora{8, 1024, 1024, 16};

// LoRA written six ways, at kernel level only, so size tuning has nothing
// to choose: distinct candidates whose trials each interpret two programs
// as costly as the reference or up to twice. The last two drop or double a
// term and are rejected.
std::vector<FoundCandidate> loraRewrites(const testing::LoraShape& s) {
  struct Operands {
    TensorRef x, w, a, b, xw;
  };
  const std::vector<std::function<TensorRef(KernelGraph&, const Operands&)>> forms{
      [](KernelGraph& k, const Operands& o) { return k.add(o.xw, k.matmul(k.matmul(o.x, o.a), o.b)); },
      [](KernelGraph& k, const Operands& o) { return k.add(k.matmul(k.matmul(o.x, o.a), o.b), o.xw); },
      [](KernelGraph& k, const Operands& o) { return k.add(o.xw, k.matmul(o.x, k.matmul(o.a, o.b))); },
      [](KernelGraph& k, const Operands& o) { return k.add(k.matmul(o.x, k.matmul(o.a, o.b)), o.xw); },
      [](KernelGraph&, const Operands& o) { return o.xw; },
      [](KernelGraph& k, const Operands& o) { return k.add(o.xw, o.xw); },
  };
  std::vector<FoundCandidate> found;
  for (const auto& form : forms) {
    KernelGraph k("lora");
    Operands o;
    o.x = k.input("x", {s.tokens, s.in});
    o.w = k.input("w", {s.in, s.out});
    o.a = k.input("lora_a", {s.in, s.rank});
    o.b = k.input("lora_b", {s.rank, s.out});
    o.xw = k.matmul(o.x, o.w);
    k.markOutput(form(k, o));
    found.push_back({std::move(k), 0});
  }
  return found;
}

} // namespace

TEST_CASE("a time limit bounds the whole run at paper shape, and what was verified in time is kept", "[superopt]") {
  // RMSNorm + MatMul at Mirage's shape (samples/rmsnorm_matmul.onnx) finds
  // two-kernel forms within a second. It is not LAX, so a trial is float
  // runs: 2 instead of 8 make one take about 2 s here, two at once, not 8 s.
  // The limit leaves time for such a trial with the machine three times as
  // busy, when the search keeps three quarters of it for ranking.
  SearchOptions o; // Mirage's limits, 5 x 7
  o.threads = 2;
  o.verify.seed = 1;
  o.verify.floatTrials = 2;
  o.timeLimitSeconds = 10;
  const Clock::time_point start = Clock::now();
  SearchResult r = SuperoptSearch(testing::rmsNormMatmul({.tokens = 8, .in = 4096, .out = 4096}), o).run();
  const double wall = secondsSince(start);
  // A verifier call that has started runs to its end: the run may outlast
  // the limit by the longest such call (a kept candidate's last, which took
  // its verdict's seconds) and no more. Ranking that ignored the deadline
  // would run every candidate's trials, many calls past it.
  double longestCall = 0;
  for (const Candidate& c : r.candidates) longestCall = std::max(longestCall, c.verdict.seconds);
  INFO("search " << r.progress.elapsedSeconds << " s, ranking " << r.rankingSeconds << " s, " << r.progress.candidates
                 << " candidates, " << r.progress.verified << " verified, cut in " << r.cut.phase()
                 << "; the longest verifier call " << longestCall << " s");
  CHECK(wall < o.timeLimitSeconds + longestCall + 0.5);
  CHECK(r.stop == StopReason::TimeLimit);
  CHECK(r.progress.elapsedSeconds < (1 - kRankingShare) * o.timeLimitSeconds);
  REQUIRE(!r.candidates.empty());
  CHECK(r.candidates.front().verdict.verdict != verify::Verdict::NotEquivalent);
  CHECK(r.candidates.front().estimatedMicros < r.referenceMicros);
}

TEST_CASE("ranking stops at the deadline, keeps what it verified and counts what it left undone", "[superopt]") {
  const std::vector<FoundCandidate> found = loraRewrites(kLora);
  SearchOptions o;
  o.threads = 1;
  o.verify.seed = 1;
  SearchResult r;
  r.reference = testing::lora(kLora);
  SearchProgress progress;

  SECTION("a deadline already passed: no trial, nothing kept") {
    const Clock::time_point start = Clock::now();
    rankCandidates(r, found, o, progress, {}, Deadline(start));
    CHECK(secondsSince(start) < 1);
    CHECK(r.cut.untuned == 0); // kernel level only: no sizes to choose
    CHECK(r.cut.untried == progress.candidates - progress.variants - progress.slow);
    CHECK(r.cut.untried > 0);
    CHECK(progress.unchecked == r.cut.untried);
    CHECK(progress.verified + progress.rejected == 0);
    CHECK(r.candidates.empty());
    CHECK(std::string(r.cut.phase()) == "verification");
  }

  SECTION("a deadline with time for a few trials: the best are verified, the rest left") {
    // One trial, timed here: the deadline leaves time for about five, of
    // which the first trials may use half.
    verify::VerifyOptions once = o.verify;
    once.maxTrials = 1;
    const double trial = verify::FiniteFieldVerifier(once).verify(r.reference, found[0].graph).seconds;
    const double limit = 5 * trial;
    const Clock::time_point start = Clock::now();
    rankCandidates(r, found, o, progress, {}, Deadline::after(limit));
    const double wall = secondsSince(start);
    INFO("a trial took " << trial << " s; ranking " << wall << " s of " << limit << " s; " << progress.verified
                         << " verified, " << progress.rejected << " rejected, " << r.cut.untried << " untried, "
                         << r.cut.unconfirmed << " unconfirmed");
    // A trial that has started runs to its end: at most one past the deadline.
    CHECK(wall < limit + trial);
    CHECK(r.cut.untried > 0);
    CHECK(progress.verified > 0);
    REQUIRE(!r.candidates.empty());
    CHECK(r.candidates.front().verdict.verdict != verify::Verdict::NotEquivalent);
  }
}
