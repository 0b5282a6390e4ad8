#include "ir/Tensor.h"
#include "support/Half.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace tcx;

TEST_CASE("bf16 rounds to nearest even and keeps NaN and infinities", "[half]") {
  CHECK(float(BFloat16(1.0f)) == 1.0f);
  CHECK(float(BFloat16(-2.5f)) == -2.5f);
  // 1 + 2^-8 is halfway between two bf16 neighbours: ties go to the even one (1.0).
  CHECK(float(BFloat16(1.0f + std::ldexp(1.0f, -8))) == 1.0f);
  CHECK(float(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8))) == 1.0f + std::ldexp(1.0f, -6));
  CHECK(std::isnan(float(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(std::isinf(float(BFloat16(std::numeric_limits<float>::infinity()))));
}

TEST_CASE("f16 converts normals, subnormals, overflow and NaN", "[half]") {
  CHECK(Half(1.0f).bits == 0x3c00);
  CHECK(Half(-2.0f).bits == 0xc000);
  CHECK(Half(65504.0f).bits == 0x7bff);
  CHECK(Half(1e6f).bits == 0x7c00);                  // overflow to +inf
  CHECK(Half(std::ldexp(1.0f, -24)).bits == 0x0001); // smallest subnormal
  CHECK(Half(std::ldexp(1.0f, -26)).bits == 0x0000); // underflow to zero
  CHECK(float(Half(std::ldexp(3.0f, -24))) == std::ldexp(3.0f, -24));
  CHECK(std::isnan(float(Half(std::numeric_limits<float>::quiet_NaN()))));
  // Every half value round-trips through float exactly.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    Half h;
    h.bits = static_cast<uint16_t>(bits);
    float f = h;
    if (std::isnan(f)) continue;
    REQUIRE(Half(f).bits == h.bits);
  }
}

TEST_CASE("tensors share storage on copy and clone deeply", "[tensor]") {
  Tensor a = Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4});
  Tensor b = a;
  b.data<float>()[0] = 9;
  CHECK(a.data<float>()[0] == 9);
  Tensor c = a.clone();
  c.data<float>()[1] = 7;
  CHECK(a.data<float>()[1] == 2);
  CHECK(a.reshaped({4}).shape() == Shape{4});
  CHECK_THROWS_AS(a.data<double>(), Error);
  CHECK(Tensor::fromVector<int32_t>({3}, {1, -2, 3}).toInt64Vector() == std::vector<int64_t>{1, -2, 3});
}
