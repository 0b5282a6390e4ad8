#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Expand broadcasts to the requested shape", "[movement][expand]") {
  Tensor x = Tensor::fromVector<float>({3, 1}, {1, 2, 3});
  REQUIRE_SAME(runOp1("Expand", {x, ints({3, 4})}),
               Tensor::fromVector<float>({3, 4}, {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  Tensor y = runOp1("Expand", {x, ints({2, 1, 6})});
  REQUIRE(y.shape() == Shape{2, 3, 6});
  for (int64_t i = 0; i < y.numElements(); ++i) REQUIRE(y.data<float>()[i] == 1 + (i / 6) % 3);
  Tensor row = Tensor::fromVector<int64_t>({1, 3}, {7, 8, 9});
  REQUIRE_SAME(runOp1("Expand", {row, ints({2, 1})}), Tensor::fromVector<int64_t>({2, 3}, {7, 8, 9, 7, 8, 9}));
}

TEST_CASE("Expand keeps input dimensions where the shape asks for 1", "[movement][expand]") {
  Tensor x = iota<int32_t>({2, 3});
  REQUIRE_SAME(runOp1("Expand", {x, ints({1})}), x);
  REQUIRE_SAME(runOp1("Expand", {x, ints({1, 1, 1})}), iota<int32_t>({1, 2, 3}));
  REQUIRE_SAME(runOp1("Expand", {Tensor::scalar<bool>(true), ints({2})}),
               Tensor::fromVector<bool>({2}, {true, true}));
  REQUIRE_SAME(runOp1("Expand", {halves({1}, {1.5f}), ints({0})}), halves({0}, {}));
}

TEST_CASE("Expand rejects incompatible shapes", "[movement][expand]") {
  Tensor x = iota<float>({3});
  CHECK(thrownKind([&] { runOp1("Expand", {x, ints({4})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Expand", {x, ints({-1, 3})}); }) == ErrorKind::ShapeInference);
}

TEST_CASE("Tile repeats along every axis", "[movement][tile]") {
  Tensor x = Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4});
  REQUIRE_SAME(runOp1("Tile", {x, ints({2, 3})}),
               Tensor::fromVector<float>({4, 6}, {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                                  1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
  REQUIRE_SAME(runOp1("Tile", {x, ints({1, 1})}), x);
  REQUIRE_SAME(runOp1("Tile", {x, ints({0, 1})}), iota<float>({0, 2}));
  REQUIRE_SAME(runOp1("Tile", {halves({2}, {0.5f, -1}), ints({2})}), halves({4}, {0.5f, -1, 0.5f, -1}));
  REQUIRE_SAME(runOp1("Tile", {Tensor::scalar<int64_t>(5), ints({})}), Tensor::scalar<int64_t>(5));
}

TEST_CASE("Tile rejects bad repeats", "[movement][tile]") {
  Tensor x = iota<float>({2, 2});
  CHECK(thrownKind([&] { runOp1("Tile", {x, ints({2})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Tile", {x, ints({2, -1})}); }) == ErrorKind::ShapeInference);
}
