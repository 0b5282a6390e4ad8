#pragma once
// Probabilistic equivalence of two μGraphs (Mirage §5).
//
// LAX programs: random trials over Z_p x Z_q (FiniteField). Theorem 3 bounds
// the chance that one trial passes for non-equivalent programs by
// 1 - 1/k + o(1/k), k being the number of exponential terms (ExpTerms.h
// says how it is counted; the o(1/k) term is negligible here since d k^4 is
// far below q = 2^31 - 1 for the programs we verify). Independent trials then
// all pass with probability at most (1 - 1/k)^t <= e^(-t/k), so
//     t = ceil(k * ln(1/δ))
// trials reach a requested error bound δ (Theorem 4's Ω(k ln 1/δ)). Every
// trial draws a fresh ω and fresh inputs. Equivalent programs always pass.
//
// Programs outside LAX get a floating-point random test with a tolerance and
// the verdict UnprovenFloat: agreement there is evidence, never a proof.

#include "mugraph/MuGraph.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tcx::verify {

// Equivalent: every trial passed and the requested δ was reached.
// PassedCapped: every trial passed, but maxTrials stopped short of the
// requested δ; `delta` says what was reached.
enum class Verdict { Equivalent, NotEquivalent, PassedCapped, UnprovenFloat };
// "equivalent", "not equivalent", "passed (bound not reached)", "unproven (float test)"
const char* verdictName(Verdict v);

struct VerifyOptions {
  double delta = 0x1p-40;        // requested bound on accepting non-equivalent programs
  int64_t maxTrials = 1'000'000; // a cap; when it binds, the verdict reports the δ reached
  uint64_t seed = 0;             // 0: seeded from std::random_device
  int floatTrials = 8;           // for programs outside LAX
  double floatTolerance = 1e-6;  // relative to max(1, |reference|)
};

struct Difference {
  int output = 0;      // which program output
  int64_t element = 0; // row-major index into it
  std::string a, b;    // the two values, printed
};

struct VerifyResult {
  Verdict verdict = Verdict::Equivalent;
  double requestedDelta = 0;
  double delta = 0;    // bound reached: e^(-trials/k) (1 when unproven)
  uint64_t k = 0;      // exponential terms (0 for the float test)
  int64_t trials = 0;  // trials run, until the first difference if any
  int64_t redraws = 0; // trials repeated after a division by zero (event E)
  double seconds = 0;
  int64_t elementsPerTrial = 0; // output elements compared per trial
  std::string notLax;           // why the float test was used
  std::optional<Difference> firstDifference;
};

class FiniteFieldVerifier {
public:
  explicit FiniteFieldVerifier(VerifyOptions options = {}) : options_(options) {}

  // Raises InvalidArgument if the programs' inputs or outputs differ in
  // number or shape (they cannot be compared at all).
  VerifyResult verify(const mugraph::KernelGraph& a, const mugraph::KernelGraph& b) const;

  // t = ceil(k ln(1/δ)), at least 1.
  static int64_t trialsFor(double delta, uint64_t k);

private:
  VerifyOptions options_;
};

} // namespace tcx::verify
