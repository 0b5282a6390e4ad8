// The vectorisable float functions against the C library in double.

#include "ops/elementwise/VectorMath.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace tcx::elementwise;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The largest relative error of f against ref over `count` evenly spaced
// points of [lo, hi].
template <typename F, typename Ref> double maxRelativeError(F f, Ref ref, float lo, float hi, int count = 1 << 20) {
  double worst = 0;
  for (int i = 0; i <= count; ++i) {
    float x = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(count);
    double exact = ref(static_cast<double>(x));
    worst = std::max(worst, std::fabs(static_cast<double>(f(x)) - exact) / std::fabs(exact));
  }
  return worst;
}

} // namespace

TEST_CASE("vmath::exp is within a few ulp over the normal range", "[elementwise][vmath]") {
  auto f = [](float x) { return vmath::exp(x); };
  auto ref = [](double x) { return std::exp(x); };
  CHECK(maxRelativeError(f, ref, -87.0f, 88.7f) < 4e-7);
  CHECK(maxRelativeError(f, ref, -1.0f, 1.0f) < 3e-7);
  CHECK(vmath::exp(0.0f) == 1.0f);
  CHECK(vmath::exp(89.0f) == kInf);
  CHECK(vmath::exp(kInf) == kInf);
  CHECK(vmath::exp(-kInf) == 0.0f);
  CHECK(vmath::exp(-200.0f) == 0.0f);
  CHECK(std::fabs(vmath::exp(-100.0f) - std::exp(-100.0f)) < 1e-44f); // subnormal
  CHECK(std::isnan(vmath::exp(kNaN)));
}

TEST_CASE("vmath::tanh is within a few ulp, near 0 too", "[elementwise][vmath]") {
  auto f = [](float x) { return vmath::tanh(x); };
  auto ref = [](double x) { return std::tanh(x); };
  CHECK(maxRelativeError(f, ref, -10.0f, 10.0f) < 6e-7);
  CHECK(maxRelativeError(f, ref, 1e-6f, 1.0f) < 4e-7);
  CHECK(vmath::tanh(kInf) == 1.0f);
  CHECK(vmath::tanh(-kInf) == -1.0f);
  CHECK(vmath::tanh(0.0f) == 0.0f);
  CHECK(std::isnan(vmath::tanh(kNaN)));
}

TEST_CASE("vmath::erf and vmath::erfc are accurate in both tails", "[elementwise][vmath]") {
  auto erf = [](float x) { return vmath::erf(x); };
  auto erfc = [](float x) { return vmath::erfc(x); };
  CHECK(maxRelativeError(
            erf, [](double x) { return std::erf(x); }, -6.0f, 6.0f) < 5e-7);
  CHECK(maxRelativeError(
            erf, [](double x) { return std::erf(x); }, 1e-6f, 1.0f) < 5e-7);
  CHECK(maxRelativeError(
            erfc, [](double x) { return std::erfc(x); }, -6.0f, 2.5f) < 1e-6);
  // In the upper tail e^-x^2 carries the rounding of x^2 (to 6e-8 relative).
  CHECK(maxRelativeError(
            erfc, [](double x) { return std::erfc(x); }, 2.5f, 9.0f) < 1e-5);
  CHECK(vmath::erf(kInf) == 1.0f);
  CHECK(vmath::erf(-kInf) == -1.0f);
  CHECK(vmath::erfc(kInf) == 0.0f);
  CHECK(vmath::erfc(-kInf) == 2.0f);
  CHECK(std::isnan(vmath::erf(kNaN)));
  CHECK(std::isnan(vmath::erfc(kNaN)));
}

TEST_CASE("vmath passes double to the C library", "[elementwise][vmath]") {
  CHECK(vmath::exp(1.0) == std::exp(1.0));
  CHECK(vmath::tanh(0.5) == std::tanh(0.5));
  CHECK(vmath::erf(0.5) == std::erf(0.5));
  CHECK(vmath::erfc(0.5) == std::erfc(0.5));
}
