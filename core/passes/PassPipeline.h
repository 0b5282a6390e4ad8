#pragma once
// A pipeline of named passes over one IR, after MLIR's PassManager. Each pass
// is timed, and with verification on the IR's verifier runs after every pass,
// so a pass that breaks an invariant is named at once instead of by whatever
// later trips over the damage (an executor reading a wrongly typed buffer,
// a plan that drops a node).
//
// The pipelines: graphCleanupPipeline (passes/GraphPasses.h) at import, and
// the VTC stages of VtcSession (fusion, VTOG, greedy, points-to, lowering,
// estimation). `tcx ... --time-passes` prints what they recorded; the
// explorer shows the same table.

#include "support/Error.h"

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tcx {

struct PassTiming {
  std::string pipeline;
  std::string pass;
  double seconds = 0;
};

// The per-pass wall times of the pipelines one compilation ran, in order.
class PassTimings {
public:
  void record(PassTiming timing) { entries_.push_back(std::move(timing)); }
  void append(const PassTimings& other);
  // Drops the entries of `pipeline`, which is about to run again.
  void forget(const std::string& pipeline);
  const std::vector<PassTiming>& entries() const { return entries_; }
  double totalSeconds() const;

private:
  std::vector<PassTiming> entries_;
};

// Whether a pipeline verifies after each pass when its caller does not say:
// in debug builds, and where the environment sets TCX_VERIFY_EACH_PASS=1
// (ctest sets it for every test, so the suite runs with verification on the
// release build users run).
bool verifyEachPassByDefault();

template <class IR>
class PassPipeline {
public:
  using Pass = std::function<void(IR&)>;
  // Raises on the first broken invariant of the IR.
  using Verifier = std::function<void(const IR&)>;

  PassPipeline(std::string name, Verifier verifier) : name_(std::move(name)), verifier_(std::move(verifier)) {}

  PassPipeline& add(std::string pass, Pass run) {
    passes_.push_back({std::move(pass), std::move(run)});
    return *this;
  }

  const std::string& name() const { return name_; }
  std::vector<std::string> passNames() const {
    std::vector<std::string> names;
    for (const auto& p : passes_) names.push_back(p.name);
    return names;
  }

  // Runs the passes in order, recording each one's time in `timings` when
  // given. A pass's own errors pass through unchanged (they already name the
  // node); a verifier failure is a bug in the pass and says which.
  void run(IR& ir, PassTimings* timings = nullptr, bool verify = verifyEachPassByDefault()) const {
    for (const auto& pass : passes_) {
      auto start = std::chrono::steady_clock::now();
      pass.run(ir);
      std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      if (timings) timings->record({name_, pass.name, elapsed.count()});
      if (!verify) continue;
      try {
        verifier_(ir);
      } catch (const Error& e) {
        raise(ErrorKind::Internal, "{} pipeline: the IR is broken after pass '{}': {}", name_, pass.name, e.what());
      }
    }
  }

private:
  struct NamedPass {
    std::string name;
    Pass run;
  };
  std::string name_;
  Verifier verifier_;
  std::vector<NamedPass> passes_;
};

} // namespace tcx
