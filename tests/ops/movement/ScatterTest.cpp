#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor scatterElements(const Tensor& data, const Tensor& indices, const Tensor& updates, int64_t axis,
                       const char* reduction = "none") {
  return runOp1("ScatterElements", {data, indices, updates}, attrs({{"axis", axis}, {"reduction", reduction}}));
}

Tensor scatterND(const Tensor& data, const Tensor& indices, const Tensor& updates, const char* reduction = "none") {
  return runOp1("ScatterND", {data, indices, updates}, attrs({{"reduction", reduction}}));
}

} // namespace

TEST_CASE("ScatterElements writes updates along an axis", "[movement][scatterelements]") {
  Tensor zeros(DType::F32, {3, 3});
  Tensor indices = Tensor::fromVector<int64_t>({2, 3}, {1, 0, 2, 0, 2, 1});
  Tensor updates = Tensor::fromVector<float>({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f});
  REQUIRE_SAME(runOp1("ScatterElements", {zeros, indices, updates}),
               Tensor::fromVector<float>({3, 3}, {2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
  Tensor row = Tensor::fromVector<float>({1, 5}, {1, 2, 3, 4, 5});
  Tensor two = Tensor::fromVector<float>({1, 2}, {1.1f, 2.1f});
  REQUIRE_SAME(scatterElements(row, Tensor::fromVector<int64_t>({1, 2}, {1, 3}), two, 1),
               Tensor::fromVector<float>({1, 5}, {1, 1.1f, 3, 2.1f, 5}));
  REQUIRE_SAME(scatterElements(row, Tensor::fromVector<int32_t>({1, 2}, {1, -3}), two, -1),
               Tensor::fromVector<float>({1, 5}, {1, 1.1f, 2.1f, 4, 5}));
}

TEST_CASE("ScatterElements reduces duplicate indices", "[movement][scatterelements]") {
  Tensor row = Tensor::fromVector<float>({1, 5}, {1, 2, 3, 4, 5});
  Tensor same = Tensor::fromVector<int64_t>({1, 2}, {1, 1});
  Tensor two = Tensor::fromVector<float>({1, 2}, {1.1f, 2.1f});
  auto expectAt1 = [&](const char* reduction, float value) {
    INFO(reduction);
    REQUIRE_CLOSE(scatterElements(row, same, two, 1, reduction),
                  Tensor::fromVector<float>({1, 5}, {1, value, 3, 4, 5}), 1e-6, 0.0);
  };
  expectAt1("none", 2.1f);
  expectAt1("add", 2 + 1.1f + 2.1f);
  expectAt1("mul", 2 * 1.1f * 2.1f);
  expectAt1("max", 2.1f);
  expectAt1("min", 1.1f);
}

TEST_CASE("ScatterElements reduces in every dtype", "[movement][scatterelements]") {
  Tensor flags = Tensor::fromVector<bool>({3}, {false, true, true});
  Tensor idx = ints({0, 2});
  Tensor upd = Tensor::fromVector<bool>({2}, {true, false});
  REQUIRE_SAME(scatterElements(flags, idx, upd, 0, "add"), Tensor::fromVector<bool>({3}, {true, true, true}));
  REQUIRE_SAME(scatterElements(flags, idx, upd, 0, "mul"), Tensor::fromVector<bool>({3}, {false, true, false}));
  REQUIRE_SAME(scatterElements(flags, idx, upd, 0), Tensor::fromVector<bool>({3}, {true, true, false}));
  REQUIRE_SAME(scatterElements(halves({2}, {1.5f, 2}), ints({1, 1}), halves({2}, {0.25f, 0.25f}), 0, "add"),
               halves({2}, {1.5f, 2.5f}));
  REQUIRE_SAME(scatterElements(Tensor::fromVector<int8_t>({2}, {100, -5}), ints({0, 1}),
                               Tensor::fromVector<int8_t>({2}, {-7, 3}), 0, "max"),
               Tensor::fromVector<int8_t>({2}, {100, 3}));
}

TEST_CASE("ScatterElements rejects bad operands", "[movement][scatterelements]") {
  Tensor data = iota<float>({2, 3});
  Tensor idx = Tensor::fromVector<int64_t>({1, 2}, {0, 3});
  Tensor upd = iota<float>({1, 2});
  CHECK(thrownKind([&] { scatterElements(data, idx, upd, 1); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { scatterElements(data, idx, upd, 0); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { scatterElements(data, ints({0}), upd, 0); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { scatterElements(data, idx, iota<float>({1, 3}), 1); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { scatterElements(data, idx, iota<double>({1, 2}), 1); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { scatterElements(data, idx, upd, 1, "sub"); }) == ErrorKind::InvalidModel);
}

TEST_CASE("ScatterND writes elements and blocks", "[movement][scatternd]") {
  Tensor data = Tensor::fromVector<float>({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  REQUIRE_SAME(runOp1("ScatterND", {data, Tensor::fromVector<int64_t>({4, 1}, {4, 3, 1, 7}),
                                    Tensor::fromVector<float>({4}, {9, 10, 11, 12})}),
               Tensor::fromVector<float>({8}, {1, 11, 3, 10, 9, 6, 7, 12}));
  Tensor cube = iota<int64_t>({2, 2, 2});
  REQUIRE_SAME(scatterND(cube, Tensor::fromVector<int64_t>({1, 1}, {1}),
                         Tensor::fromVector<int64_t>({1, 2, 2}, {10, 11, 12, 13})),
               Tensor::fromVector<int64_t>({2, 2, 2}, {0, 1, 2, 3, 10, 11, 12, 13}));
  REQUIRE_SAME(scatterND(cube, Tensor::fromVector<int32_t>({1, 2}, {-1, 0}),
                         Tensor::fromVector<int64_t>({1, 2}, {8, 9})),
               Tensor::fromVector<int64_t>({2, 2, 2}, {0, 1, 2, 3, 8, 9, 6, 7}));
  REQUIRE_SAME(scatterND(cube, Tensor::fromVector<int64_t>({0, 3}, {}), iota<int64_t>({0})), cube);
}

TEST_CASE("ScatterND reductions", "[movement][scatternd]") {
  Tensor data = Tensor::fromVector<float>({4}, {1, 2, 3, 4});
  Tensor twice = Tensor::fromVector<int64_t>({2, 1}, {0, 0});
  Tensor upd = Tensor::fromVector<float>({2}, {5, 6});
  REQUIRE_SAME(scatterND(data, twice, upd, "add"), Tensor::fromVector<float>({4}, {12, 2, 3, 4}));
  REQUIRE_SAME(scatterND(data, twice, upd, "mul"), Tensor::fromVector<float>({4}, {30, 2, 3, 4}));
  REQUIRE_SAME(scatterND(data, twice, upd, "max"), Tensor::fromVector<float>({4}, {6, 2, 3, 4}));
  REQUIRE_SAME(scatterND(data, twice, upd, "min"), Tensor::fromVector<float>({4}, {1, 2, 3, 4}));
  REQUIRE_SAME(scatterND(halves({2}, {1, 2}), Tensor::fromVector<int64_t>({1, 1}, {1}), halves({1}, {0.5f}), "mul"),
               halves({2}, {1, 1}));
}

TEST_CASE("ScatterND rejects bad operands", "[movement][scatternd]") {
  Tensor data = iota<float>({2, 3});
  auto scatter = [](Tensor d, Tensor i, Tensor u) { return [=] { scatterND(d, i, u); }; };
  CHECK(thrownKind(scatter(data, Tensor::fromVector<int64_t>({1, 1}, {2}), iota<float>({1, 3}))) ==
        ErrorKind::InvalidModel);
  CHECK(thrownKind(scatter(data, Tensor::fromVector<int64_t>({1, 2}, {0, -4}), iota<float>({1}))) ==
        ErrorKind::InvalidModel);
  CHECK(thrownKind(scatter(data, Tensor::fromVector<int64_t>({1, 1}, {0}), iota<float>({1, 2}))) ==
        ErrorKind::ShapeInference);
  CHECK(thrownKind(scatter(data, Tensor::fromVector<int64_t>({1, 3}, {0, 0, 0}), iota<float>({1}))) ==
        ErrorKind::ShapeInference);
  CHECK(thrownKind(scatter(data, Tensor::scalar<int64_t>(0), iota<float>({3}))) == ErrorKind::ShapeInference);
}
