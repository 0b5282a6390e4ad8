#include "verify/FiniteFieldVerifier.h"

#include "mugraph/FloatDomain.h"
#include "mugraph/Lax.h"
#include "support/Error.h"
#include "verify/ExpTerms.h"
#include "verify/FieldDomain.h"

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx::verify {

using namespace mugraph;

const char* verdictName(Verdict v) {
  switch (v) {
  case Verdict::Equivalent: return "equivalent";
  case Verdict::NotEquivalent: return "not equivalent";
  case Verdict::PassedCapped: return "passed (bound not reached)";
  case Verdict::UnprovenFloat: return "unproven (float test)";
  }
  return "?";
}

int64_t FiniteFieldVerifier::trialsFor(double delta, uint64_t k) {
  TCX_CHECK(delta > 0 && delta <= 1, ErrorKind::InvalidArgument, "δ must be in (0, 1], got {}", delta);
  double t = std::ceil(static_cast<double>(std::max<uint64_t>(k, 1)) * std::log(1 / delta));
  return std::max<int64_t>(1, t > 0x1p62 ? int64_t{1} << 62 : static_cast<int64_t>(t));
}

namespace {

void checkComparable(const KernelGraph& a, const KernelGraph& b) {
  std::vector<int> ia = a.inputOps(), ib = b.inputOps();
  TCX_CHECK(ia.size() == ib.size(), ErrorKind::InvalidArgument, "'{}' takes {} inputs but '{}' takes {}", a.name(),
            ia.size(), b.name(), ib.size());
  for (size_t i = 0; i < ia.size(); ++i)
    TCX_CHECK(a.op(ia[i]).shape == b.op(ib[i]).shape, ErrorKind::InvalidArgument,
              "input {} is [{}] in '{}' but [{}] in '{}'", i, fmt::join(a.op(ia[i]).shape, ","), a.name(),
              fmt::join(b.op(ib[i]).shape, ","), b.name());
  TCX_CHECK(a.outputs().size() == b.outputs().size(), ErrorKind::InvalidArgument, "'{}' has {} outputs but '{}' has {}",
            a.name(), a.outputs().size(), b.name(), b.outputs().size());
  for (size_t i = 0; i < a.outputs().size(); ++i)
    TCX_CHECK(a.desc(a.outputs()[i]).shape == b.desc(b.outputs()[i]).shape, ErrorKind::InvalidArgument,
              "output {} is [{}] in '{}' but [{}] in '{}'", i, fmt::join(a.desc(a.outputs()[i]).shape, ","), a.name(),
              fmt::join(b.desc(b.outputs()[i]).shape, ","), b.name());
}

int64_t outputElements(const KernelGraph& g) {
  int64_t n = 0;
  for (TensorRef t : g.outputs()) n += numElements(g.desc(t).shape);
  return n;
}

// The first element where `same` fails, comparing output by output.
template <typename Tensor, typename Same, typename Print>
std::optional<Difference> firstDifference(const std::vector<Tensor>& x, const std::vector<Tensor>& y, Same same,
                                          Print print) {
  for (size_t o = 0; o < x.size(); ++o)
    for (size_t e = 0; e < x[o].data.size(); ++e)
      if (!same(x[o].data[e], y[o].data[e]))
        return Difference{static_cast<int>(o), static_cast<int64_t>(e), print(x[o].data[e]), print(y[o].data[e])};
  return std::nullopt;
}

} // namespace

VerifyResult FiniteFieldVerifier::verify(const KernelGraph& a, const KernelGraph& b) const {
  checkComparable(a, b);
  auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(options_.seed ? options_.seed : std::random_device{}());
  VerifyResult r;
  r.requestedDelta = options_.delta;
  r.elementsPerTrial = outputElements(a);

  LaxCheck laxA = checkLax(a), laxB = checkLax(b);
  if (!laxA.lax || !laxB.lax) {
    r.notLax =
        !laxA.lax ? fmt::format("'{}': {}", a.name(), laxA.reason) : fmt::format("'{}': {}", b.name(), laxB.reason);
    r.verdict = Verdict::UnprovenFloat;
    r.delta = 1;
    FloatDomain domain;
    Interpreter<FloatDomain> interp(domain);
    auto same = [&](double x, double y) {
      return std::abs(x - y) <= options_.floatTolerance * std::max(1.0, std::abs(x));
    };
    for (; r.trials < options_.floatTrials && !r.firstDifference; ++r.trials) {
      auto inputs = randomInputs(domain, a, rng);
      r.firstDifference = firstDifference(interp.run(a, inputs), interp.run(b, inputs), same,
                                          [](double v) { return fmt::format("{:.9g}", v); });
    }
    if (r.firstDifference) r.verdict = Verdict::NotEquivalent;
  } else {
    r.k = countExpTerms(a) + countExpTerms(b); // the difference a - b has the terms of both
    int64_t planned = std::min(trialsFor(options_.delta, r.k), options_.maxTrials);
    auto print = [](FieldElement v) { return fmt::format("({}, {})", v.p, v.q); };
    auto same = [](FieldElement x, FieldElement y) { return x.p == y.p; }; // outputs live in Z_p
    while (r.trials < planned && !r.firstDifference) {
      FiniteField field(rng);
      FieldDomain domain(field);
      Interpreter<FieldDomain> interp(domain);
      auto inputs = randomInputs(domain, a, rng);
      try {
        r.firstDifference = firstDifference(interp.run(a, inputs), interp.run(b, inputs), same, print);
        ++r.trials;
      } catch (const FieldDivisionByZero&) {
        // Theorem 3 conditions on event E (no denominator vanishes): such a
        // trial carries no information, so it is drawn again.
        ++r.redraws;
        TCX_CHECK(r.redraws <= 1000 + r.trials, ErrorKind::InvalidArgument,
                  "'{}' or '{}' divides by zero in almost every trial: a denominator is identically zero", a.name(),
                  b.name());
      }
    }
    r.delta = r.firstDifference ? 0 : std::exp(-static_cast<double>(r.trials) / static_cast<double>(r.k));
    if (r.firstDifference)
      r.verdict = Verdict::NotEquivalent;
    else
      r.verdict =
          r.delta <= options_.delta * (1 + 1e-9) ? Verdict::Equivalent : Verdict::PassedCapped; // rounding of exp()
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

} // namespace tcx::verify
