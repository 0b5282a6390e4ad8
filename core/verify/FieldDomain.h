#pragma once
// The interpreter's finite-field domain: Mirage Table 3 on pairs (x_p, x_q).

#include "mugraph/Interpreter.h"
#include "verify/FiniteField.h"

#include <stdexcept>

namespace tcx::verify {

struct FieldElement {
  // Table 3 leaves the Z_q part of exp(x) undefined; everything computed
  // from it has an undefined Z_q part too. Keeping that explicit lets a
  // division by such a value go through (only its Z_p part divides) and
  // turns a second exp on a path into an error instead of a wrong fingerprint.
  static constexpr uint64_t kUndefined = ~uint64_t{0};
  uint64_t p = 0; // outside exponents
  uint64_t q = 0; // inside exponents, or kUndefined
  bool operator==(const FieldElement&) const = default;
};

// A trial divided by zero in Z_p or Z_q: Theorem 3's event E (every g_i and
// u_i nonzero) failed, so the trial says nothing and the verifier redraws its
// inputs. Not a tcx::Error: it is control flow of the verifier, never shown.
struct FieldDivisionByZero : std::exception {
  const char* what() const noexcept override { return "division by zero in a finite-field trial"; }
};

class FieldDomain {
public:
  using Value = FieldElement;
  explicit FieldDomain(const FiniteField& field) : f_(field) {}

  Value zero() const { return {}; }
  // Integers map to both fields; any other constant has no field image
  // (RMSNorm's epsilon): such programs are not LAX and never reach here.
  Value constant(double v) const;
  Value add(Value a, Value b) const {
    return {f_.p().add(a.p, b.p), inQ(a, b, [this](uint64_t x, uint64_t y) { return f_.q().add(x, y); })};
  }
  Value sub(Value a, Value b) const {
    return {f_.p().sub(a.p, b.p), inQ(a, b, [this](uint64_t x, uint64_t y) { return f_.q().sub(x, y); })};
  }
  Value mul(Value a, Value b) const {
    return {f_.p().mul(a.p, b.p), inQ(a, b, [this](uint64_t x, uint64_t y) { return f_.q().mul(x, y); })};
  }
  Value div(Value a, Value b) const {
    if (b.p == 0 || b.q == 0) throw FieldDivisionByZero();
    uint64_t q = a.q == FieldElement::kUndefined || b.q == FieldElement::kUndefined
                     ? FieldElement::kUndefined
                     : f_.q().mul(a.q, f_.q().inverse(b.q));
    return {f_.p().mul(a.p, f_.p().inverse(b.p)), q};
  }
  Value exp(Value a) const;
  Value sqrt(Value a) const;
  Value random(std::mt19937_64& rng) const;

private:
  template <typename Op> static uint64_t inQ(Value a, Value b, Op op) {
    if (a.q == FieldElement::kUndefined || b.q == FieldElement::kUndefined) return FieldElement::kUndefined;
    return op(a.q, b.q);
  }

  const FiniteField& f_;
};

} // namespace tcx::verify

namespace tcx::mugraph {
extern template class Interpreter<verify::FieldDomain>;
} // namespace tcx::mugraph
