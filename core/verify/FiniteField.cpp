#include "verify/FiniteField.h"

namespace tcx::verify {

uint64_t PrimeField::pow(uint64_t base, uint64_t exponent) const {
  uint64_t result = 1 % m_;
  base %= m_;
  for (; exponent; exponent >>= 1) {
    if (exponent & 1) result = mul(result, base);
    base = mul(base, base);
  }
  return result;
}

uint64_t PrimeField::fromInteger(int64_t v) const {
  int64_t r = v % static_cast<int64_t>(m_);
  return static_cast<uint64_t>(r < 0 ? r + static_cast<int64_t>(m_) : r);
}

FiniteField::FiniteField(std::mt19937_64& rng) {
  std::uniform_int_distribution<uint64_t> g(1, kP - 1);
  while (omega_ == 1) omega_ = p_.pow(g(rng), (kP - 1) / kQ);
  uint64_t base = omega_; // ω^(256^i)
  for (auto& table : omegaPowers_) {
    table[0] = 1;
    for (size_t d = 1; d < table.size(); ++d) table[d] = p_.mul(table[d - 1], base);
    base = p_.mul(table.back(), base);
  }
}

} // namespace tcx::verify
