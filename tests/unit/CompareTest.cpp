#include "exec/Compare.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace tcx;

TEST_CASE("scaledError measures on the reference's scale", "[unit]") {
  Tensor ref = Tensor::fromVector<float>({4}, {10.0f, -20.0f, 0.01f, 5.0f});
  CHECK(scaledError(ref, ref) == 0);
  Tensor got = Tensor::fromVector<float>({4}, {10.0f, -20.0f, 0.21f, 5.0f});
  CHECK(scaledError(got, ref) == Approx(0.2 / 20.0).epsilon(1e-4));
  Tensor nan = Tensor::fromVector<float>({4}, {10.0f, NAN, 0.01f, 5.0f});
  CHECK(std::isinf(scaledError(nan, ref)));
  CHECK(scaledError(nan, nan) == 0);
  CHECK(std::isinf(scaledError(Tensor::fromVector<float>({2}, {1, 2}), ref)));
}
