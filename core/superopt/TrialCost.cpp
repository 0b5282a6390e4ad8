#include "superopt/TrialCost.h"

#include "mugraph/Lax.h"
#include "superopt/MuGraphCost.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace tcx::superopt {

namespace {

// Until a trial has been observed. Per flop, LoRA's one-kernel form (256
// blocks of 4 iterations) interpreted 1.23 times slower than its reference
// at paper shape on the 2-core VM.
constexpr double kUnobservedMargin = 1.25;

// The work of the candidate firstTrial plans for, in units of the
// reference's.
constexpr double kCandidateWork = 3;

// How long the rate is measured for.
constexpr double kCalibrationSeconds = 0.1;

double flopsOf(const mugraph::KernelGraph& graph, const GpuPreset& preset) {
  double sum = 0;
  for (const KernelCost& k : estimateCost(graph, preset).kernels) sum += k.flops;
  return sum;
}

// A kernel-level matmul whose trial takes about a tenth of a second; not LAX
// (and so verified by the float test) when `lax` is false. Its weight, of
// 512K elements, does not fit the caches nearest the cores, as no weight at
// paper shape does: a float trial of a 16 x 512 x 256 matmul ran 2.3 times
// faster per flop than RMSNorm + MatMul's, this one's within 10%, and its
// field trial within 10% of LoRA's reference (2-core VM).
mugraph::KernelGraph calibrationProgram(bool lax) {
  mugraph::KernelGraph k("trial_cost");
  mugraph::TensorRef product = k.matmul(k.input("x", {4, 1024}), k.input("w", {1024, 512}));
  k.markOutput(lax ? product : k.sqrt(k.square(product)));
  return k;
}

} // namespace

TrialCost::TrialCost(const mugraph::KernelGraph& reference, const verify::VerifyOptions& options, int threads,
                     const GpuPreset& preset)
    : preset_(preset) {
  const mugraph::KernelGraph program = calibrationProgram(mugraph::checkLax(reference).lax);
  verify::VerifyOptions once = options;
  once.maxTrials = 1;
  unsigned n = threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());
  // All threads at once, as the trials will run; the slowest sets the rate.
  // Each repeats its trial for kCalibrationSeconds: a float trial of this
  // program takes 20 ms, where one hiccup of the scheduler would triple it.
  std::vector<double> seconds(n);
  std::vector<std::thread> pool;
  for (unsigned i = 0; i < n; ++i)
    pool.emplace_back([&, i] {
      double spent = 0;
      int trials = 0;
      for (; spent < kCalibrationSeconds; ++trials)
        spent += verify::FiniteFieldVerifier(once).verify(program, program).seconds;
      seconds[i] = spent / trials;
    });
  for (std::thread& t : pool) t.join();
  flopsPerSecond_ = 2 * flopsOf(program, preset_) / std::max(*std::ranges::max_element(seconds), 1e-6);
}

double TrialCost::atRate(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate) const {
  return (flopsOf(reference, preset_) + flopsOf(candidate, preset_)) / flopsPerSecond_;
}

double TrialCost::predict(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate) const {
  double ratio = observedRatio_.load();
  return atRate(reference, candidate) * (ratio > 0 ? ratio : kUnobservedMargin);
}

double TrialCost::firstTrial(const mugraph::KernelGraph& reference) const {
  return predict(reference, reference) * (1 + kCandidateWork) / 2;
}

void TrialCost::observe(const mugraph::KernelGraph& reference, const mugraph::KernelGraph& candidate,
                        double seconds) {
  double ratio = seconds / atRate(reference, candidate);
  for (double seen = observedRatio_.load(); ratio > seen && !observedRatio_.compare_exchange_weak(seen, ratio);) {
  }
}

} // namespace tcx::superopt
