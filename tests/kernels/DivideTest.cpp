// tcx/divide.h: division by a constant as one double multiply gives exactly the quotient IEEE float
// division rounds to.

#include <catch2/catch.hpp>

#include "tcx/divide.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace tcx;

namespace {

float withSignificand(uint32_t significand, int exponent) {
  return std::ldexp(std::bit_cast<float>(0x3f800000u | significand), exponent);
}

bool sameBits(float x, float y) { return std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y); }

// Every significand of the dividend at binary exponent `exponent`: within the normal range the
// quotients of a * 2^e are those of a scaled, so one exponent covers them; the smallest
// exponents give subnormal quotients, where the last rounding is coarser.
size_t mismatches(float c, int exponent) {
  const double rd = 1.0 / c;
  size_t bad = 0;
  for (uint32_t significand = 0; significand < (1u << 23); ++significand) {
    const float a = withSignificand(significand, exponent);
    bad += !sameBits(divideByConstant(a, rd), a / c);
  }
  return bad;
}

} // namespace

TEST_CASE("dividing by a constant rounds as IEEE division does, for every significand", "[kernels][divide]") {
  // The Llama-3 score scale in bf16 and in f32, a divisor exact either way, significands of all
  // ones and of a single low bit, a negative divisor and a spread of random ones.
  std::vector<float> divisors = {11.3125f, std::sqrt(128.0f), 8.0f, 0.1f, 0x1.fffffep0f, 0x1.000002p0f, -7.0f};
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<uint32_t> significand(0, (1u << 23) - 1);
  for (int i = 0; i < 3; ++i) divisors.push_back(withSignificand(significand(rng), 0));
  for (float c : divisors) {
    INFO("divisor " << c);
    CHECK(mismatches(c, 0) == 0);
  }
  // Subnormal quotients.
  for (float c : {11.3125f, 0x1.fffffep0f, 3.0f})
    for (int exponent : {-127, -133, -145}) {
      INFO("divisor " << c << ", dividends 2^" << exponent);
      CHECK(mismatches(c, exponent) == 0);
    }
}

TEST_CASE("zeros, infinities, NaN and the extremes divide as IEEE division does", "[kernels][divide]") {
  const float inf = std::numeric_limits<float>::infinity();
  for (float c : {11.3125f, -0.25f, std::numeric_limits<float>::max(), std::numeric_limits<float>::min()}) {
    const double rd = 1.0 / c;
    for (float a : {0.0f, -0.0f, inf, -inf, 0x1p-149f, -0x1p-127f, std::numeric_limits<float>::max(),
                    std::numeric_limits<float>::min(), 1.0f}) {
      INFO("dividend " << a << ", divisor " << c);
      CHECK(sameBits(divideByConstant(a, rd), a / c));
    }
    CHECK(std::isnan(divideByConstant(std::numeric_limits<float>::quiet_NaN(), rd)));
  }
}
