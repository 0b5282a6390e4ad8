#pragma once
// What a verifier trial will take, known before it starts. A trial
// interprets both programs over Z_p x Z_q (FiniteFieldVerifier.h) and cannot
// be stopped midway; at LoRA's paper shape one took 10 s alone on the 2-core
// VM, and 50 to 60 s with two at once while others used its cores. So a
// phase that must end by a deadline starts a trial only if it is predicted to
// end in time, and the search keeps back the time a first trial needs.
//
// A trial's work is the flops of both programs as the cost model counts them
// (MuGraphCost.h). The rate is measured when the object is made, on the
// machine as loaded then, by trials of a small matmul on as many threads as
// the trials will run on, of the reference's kind: a LAX reference's trials
// are over finite fields, another's are floatTrials float runs, a third of
// the time per flop at paper shape. Block graphs cost the interpreter more
// than their flops say (it copies every chunk), so a prediction carries a
// margin until trials have been observed, and then the largest ratio seen.

#include "mugraph/MuGraph.h"
#include "target/GpuPreset.h"
#include "verify/FiniteFieldVerifier.h"

#include <atomic>

namespace tcx::superopt {

class TrialCost {
public:
  // Measures the rate for trials against `reference`: small trials on each
  // thread for about 0.1 s (0.15 s at least for a LAX reference's).
  TrialCost(const mugraph::KernelGraph& reference, const verify::VerifyOptions& options, int threads,
            const GpuPreset& preset);

  // Seconds one trial of `candidate` against `reference` is expected to take.
  double predict(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate) const;
  // The same before the candidates are known: the time the search keeps
  // back for the first trial. LoRA's one-kernel forms do twice its
  // reference's work (each of 256 blocks computes X·A again); this plans for
  // three times.
  double firstTrial(const mugraph::KernelGraph& reference) const;
  // Such a trial took `seconds` (from any thread).
  void observe(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate, double seconds);

private:
  // At the measured rate alone, without a margin.
  double atRate(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate) const;

  GpuPreset preset_;
  double flopsPerSecond_ = 0;
  std::atomic<double> observedRatio_{0}; // the largest seen; 0 before any trial
};

} // namespace tcx::superopt
