#pragma once
// Z_p x Z_q with q | p - 1 (Mirage §5, Table 3): values outside exponents
// live in Z_p, values inside exponents in Z_q, and exp(x) = ω^(x_q) mod p for
// a random q-th root of unity ω, which is what lets polynomial identity
// testing extend to LAX programs (Theorem 3).
//
// Mirage uses p = 227, q = 113 (16-bit products) and one fixed input; here
// q = 2^31 - 1 and p = 46 q + 1 (both prime), so that the d k^4 < q condition
// of Theorem 3 holds for real programs and a wrong program survives a trial
// with probability near 1 - 1/k rather than near 1 - 1/113.

#include <array>
#include <bit>
#include <cstdint>
#include <random>

namespace tcx::verify {

__extension__ using Uint128 = unsigned __int128;

// Arithmetic modulo a prime below 2^62. Products reduce by Barrett's method
// (two 128-bit multiplications and at most two subtractions) instead of a
// 128-bit division, which is a library call and dominates matmul time.
class PrimeField {
public:
  explicit constexpr PrimeField(uint64_t modulus)
      : m_(modulus), bits_(static_cast<unsigned>(std::bit_width(modulus))),
        mu_(static_cast<uint64_t>((Uint128{1} << (2 * bits_)) / modulus)) {}
  constexpr uint64_t modulus() const { return m_; }
  uint64_t add(uint64_t a, uint64_t b) const { return a + b >= m_ ? a + b - m_ : a + b; }
  uint64_t sub(uint64_t a, uint64_t b) const { return a >= b ? a - b : a + m_ - b; }
  // For a, b < m: x = ab < 2^(2n), n the bit width of m; the quotient
  // estimate ((x >> (n-1)) mu) >> (n+1), mu = floor(2^(2n) / m), is at most
  // 2 below the true one.
  uint64_t mul(uint64_t a, uint64_t b) const {
    Uint128 x = Uint128{a} * b;
    auto quotient = static_cast<uint64_t>(((x >> (bits_ - 1)) * mu_) >> (bits_ + 1));
    auto r = static_cast<uint64_t>(x - Uint128{quotient} * m_);
    while (r >= m_) r -= m_;
    return r;
  }
  uint64_t pow(uint64_t base, uint64_t exponent) const;
  // Fermat: a^(m-2). Only for a != 0; the caller handles zero divisors.
  uint64_t inverse(uint64_t a) const { return pow(a, m_ - 2); }
  // An integer reduced into [0, m).
  uint64_t fromInteger(int64_t v) const;

private:
  uint64_t m_;
  unsigned bits_;
  uint64_t mu_;
};

class FiniteField {
public:
  static constexpr uint64_t kQ = 2147483647;  // 2^31 - 1
  static constexpr uint64_t kP = 46 * kQ + 1; // 98784247763
  static_assert((kP - 1) % kQ == 0);

  // Draws ω = g^((p-1)/q) for uniform g in Z_p*, rejecting ω = 1: the map
  // g -> g^((p-1)/q) hits every q-th root equally often, so ω is uniform
  // among the q - 1 non-trivial roots (ω = 1 would make exp() constant).
  explicit FiniteField(std::mt19937_64& rng);

  const PrimeField& p() const { return p_; }
  const PrimeField& q() const { return q_; }
  uint64_t omega() const { return omega_; }
  // ω^xq from a table of ω^(d 256^i): three products instead of ~45.
  uint64_t expOf(uint64_t xq) const {
    uint64_t r = omegaPowers_[0][xq & 255];
    for (size_t i = 1; i < omegaPowers_.size(); ++i) r = p_.mul(r, omegaPowers_[i][(xq >> (8 * i)) & 255]);
    return r;
  }

private:
  PrimeField p_{kP};
  PrimeField q_{kQ};
  uint64_t omega_ = 1;
  std::array<std::array<uint64_t, 256>, 4> omegaPowers_{}; // 4 bytes cover exponents below q < 2^32
};

} // namespace tcx::verify
