// The finite-field instantiation of the one interpreter.
#include "verify/FieldDomain.h"

#include "mugraph/InterpreterImpl.h"

#include <cmath>

namespace tcx::verify {

FieldElement FieldDomain::constant(double v) const {
  TCX_CHECK(std::nearbyint(v) == v && std::abs(v) < 0x1p62, ErrorKind::Unsupported,
            "the constant {} has no finite-field image", v);
  auto n = static_cast<int64_t>(v);
  return {f_.p().fromInteger(n), f_.q().fromInteger(n)};
}

FieldElement FieldDomain::exp(FieldElement a) const {
  TCX_CHECK(a.q != FieldElement::kUndefined, ErrorKind::Unsupported,
            "a second exponentiation on one path has no finite-field semantics (the program is not LAX)");
  return {f_.expOf(a.q), FieldElement::kUndefined};
}

FieldElement FieldDomain::sqrt(FieldElement) const {
  raise(ErrorKind::Unsupported, "Sqrt has no finite-field semantics (the program is not LAX)");
}

FieldElement FieldDomain::random(std::mt19937_64& rng) const {
  return {std::uniform_int_distribution<uint64_t>(0, f_.p().modulus() - 1)(rng),
          std::uniform_int_distribution<uint64_t>(0, f_.q().modulus() - 1)(rng)};
}

} // namespace tcx::verify

namespace tcx::mugraph {
template class Interpreter<verify::FieldDomain>;
} // namespace tcx::mugraph
