#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor slice(const Tensor& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
             const std::vector<int64_t>& axes = {}, const std::vector<int64_t>& steps = {}) {
  return runOp1("Slice", {x, ints(starts), ints(ends), axes.empty() ? Tensor() : ints(axes),
                         steps.empty() ? Tensor() : ints(steps)});
}

} // namespace

TEST_CASE("Slice selects a window", "[movement][slice]") {
  Tensor x = iota<float>({3, 4});
  REQUIRE_SAME(slice(x, {0, 1}, {2, 3}), Tensor::fromVector<float>({2, 2}, {1, 2, 5, 6}));
  REQUIRE_SAME(slice(x, {1}, {-1}, {-1}), Tensor::fromVector<float>({3, 2}, {1, 2, 5, 6, 9, 10}));
  REQUIRE_SAME(slice(x, {0}, {4}, {1}, {2}), Tensor::fromVector<float>({3, 2}, {0, 2, 4, 6, 8, 10}));
  REQUIRE_SAME(slice(x, {-2}, {kInt64Max}, {0}), Tensor::fromVector<float>({2, 4}, {4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST_CASE("Slice clamps out-of-range starts and ends", "[movement][slice]") {
  Tensor x = iota<int64_t>({10});
  REQUIRE_SAME(slice(x, {1}, {kInt64Max}), Tensor::fromVector<int64_t>({9}, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  REQUIRE_SAME(slice(x, {-100}, {2}), Tensor::fromVector<int64_t>({2}, {0, 1}));
  REQUIRE_SAME(slice(x, {1000}, {1001}), iota<int64_t>({0}));
  REQUIRE_SAME(slice(x, {5}, {3}), iota<int64_t>({0}));
  REQUIRE_SAME(slice(iota<float>({20, 10, 5}), {1000}, {1000}, {1}, {1}), iota<float>({20, 0, 5}));
}

TEST_CASE("Slice walks backwards with negative steps", "[movement][slice]") {
  Tensor x = iota<int64_t>({10});
  REQUIRE_SAME(slice(x, {-1}, {kInt64Min}, {0}, {-1}),
               Tensor::fromVector<int64_t>({10}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  REQUIRE_SAME(slice(x, {8}, {1}, {0}, {-3}), Tensor::fromVector<int64_t>({3}, {8, 5, 2}));
  REQUIRE_SAME(slice(x, {kInt64Max}, {-11}, {0}, {-4}), Tensor::fromVector<int64_t>({3}, {9, 5, 1}));
  REQUIRE_SAME(slice(x, {2}, {5}, {0}, {-1}), iota<int64_t>({0}));
  REQUIRE_SAME(slice(iota<float>({3, 4}), {-1, -1}, {kInt64Min, kInt64Min}, {0, 1}, {-1, -1}),
               Tensor::fromVector<float>({3, 4}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  // A step beyond the axis takes one element (and must not overflow).
  REQUIRE_SAME(slice(x, {3}, {kInt64Max}, {0}, {kInt64Max}), Tensor::fromVector<int64_t>({1}, {3}));
  REQUIRE_SAME(slice(x, {3}, {kInt64Min}, {0}, {kInt64Min}), Tensor::fromVector<int64_t>({1}, {3}));
  REQUIRE_SAME(slice(iota<float>({0}), {-1}, {kInt64Min}, {0}, {-1}), iota<float>({0}));
}

TEST_CASE("Slice accepts i32 operands and any dtype", "[movement][slice]") {
  Tensor h = halves({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor starts = Tensor::fromVector<int32_t>({1}, {1});
  Tensor ends = Tensor::fromVector<int32_t>({1}, {3});
  Tensor axes = Tensor::fromVector<int32_t>({1}, {1});
  REQUIRE_SAME(runOp1("Slice", {h, starts, ends, axes}), halves({2, 2}, {2, 3, 5, 6}));
  Tensor b = Tensor::fromVector<bool>({4}, {true, false, false, true});
  REQUIRE_SAME(slice(b, {3}, {0}, {0}, {-2}), Tensor::fromVector<bool>({2}, {true, false}));
}

TEST_CASE("Slice rejects inconsistent operands", "[movement][slice]") {
  Tensor x = iota<float>({3, 4});
  CHECK(thrownKind([&] { slice(x, {0}, {1}, {0}, {0}); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { slice(x, {0, 0}, {1}); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { slice(x, {0, 0}, {1, 1}, {1, -1}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { slice(x, {0}, {1}, {2}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] {
          runOp1("Slice", {x, Tensor::fromVector<float>({1}, {0}), ints({1})});
        }) == ErrorKind::InvalidModel);
}
