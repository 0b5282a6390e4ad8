#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Concat joins along an axis", "[movement][concat]") {
  Tensor a = Tensor::fromVector<float>({2, 1}, {1, 2});
  Tensor b = Tensor::fromVector<float>({2, 2}, {3, 4, 5, 6});
  Tensor joined = Tensor::fromVector<float>({2, 3}, {1, 3, 4, 2, 5, 6});
  REQUIRE_SAME(runOp1("Concat", {a, b}, attrs({{"axis", 1}})), joined);
  REQUIRE_SAME(runOp1("Concat", {a, b}, attrs({{"axis", -1}})), joined);
  REQUIRE_SAME(runOp1("Concat", {b, b}, attrs({{"axis", 0}})),
               Tensor::fromVector<float>({4, 2}, {3, 4, 5, 6, 3, 4, 5, 6}));
  REQUIRE_SAME(runOp1("Concat", {b}, attrs({{"axis", 0}})), b);
}

TEST_CASE("Concat skips empty inputs and moves any dtype", "[movement][concat]") {
  Tensor empty = iota<int64_t>({2, 0});
  Tensor x = iota<int64_t>({2, 2});
  REQUIRE_SAME(runOp1("Concat", {empty, x, empty}, attrs({{"axis", 1}})), x);
  REQUIRE_SAME(runOp1("Concat", {empty, empty}, attrs({{"axis", 0}})), iota<int64_t>({4, 0}));
  Tensor t = Tensor::fromVector<bool>({1, 2}, {true, false});
  Tensor f = Tensor::fromVector<bool>({1, 1}, {false});
  REQUIRE_SAME(runOp1("Concat", {t, f, t}, attrs({{"axis", 1}})),
               Tensor::fromVector<bool>({1, 5}, {true, false, false, true, false}));
  Tensor h = halves({1, 2}, {0.5f, 2.0f});
  REQUIRE_SAME(runOp1("Concat", {h, h}, attrs({{"axis", 0}})), halves({2, 2}, {0.5f, 2.0f, 0.5f, 2.0f}));
}

TEST_CASE("Concat rejects mismatched inputs", "[movement][concat]") {
  Tensor a = iota<float>({2, 2});
  auto concat = [](std::vector<Tensor> in, int64_t axis) {
    return [=] { runOp1("Concat", in, attrs({{"axis", axis}})); };
  };
  CHECK(thrownKind(concat({a, iota<float>({3, 3})}, 0)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(concat({a, iota<float>({2})}, 0)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(concat({a, iota<double>({2, 2})}, 0)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(concat({a, a}, 2)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(concat({Tensor::scalar<float>(1), Tensor::scalar<float>(2)}, 0)) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Concat", {a, a}); }) == ErrorKind::InvalidModel);
}

TEST_CASE("Split into equal parts by default", "[movement][split]") {
  Tensor x = Tensor::fromVector<float>({6}, {1, 2, 3, 4, 5, 6});
  std::vector<Tensor> parts = runOp("Split", {x}, {}, 3);
  REQUIRE(parts.size() == 3);
  REQUIRE_SAME(parts[0], Tensor::fromVector<float>({2}, {1, 2}));
  REQUIRE_SAME(parts[1], Tensor::fromVector<float>({2}, {3, 4}));
  REQUIRE_SAME(parts[2], Tensor::fromVector<float>({2}, {5, 6}));
}

TEST_CASE("Split by the split operand", "[movement][split]") {
  Tensor x = iota<int32_t>({2, 6});
  std::vector<Tensor> parts = runOp("Split", {x, ints({2, 4})}, attrs({{"axis", -1}}), 2);
  REQUIRE_SAME(parts[0], Tensor::fromVector<int32_t>({2, 2}, {0, 1, 6, 7}));
  REQUIRE_SAME(parts[1], Tensor::fromVector<int32_t>({2, 4}, {2, 3, 4, 5, 8, 9, 10, 11}));
  parts = runOp("Split", {iota<float>({0}), ints({0, 0, 0})}, {}, 3);
  for (const Tensor& p : parts) REQUIRE_SAME(p, iota<float>({0}));
  parts = runOp("Split", {x, ints({0, 2})}, {}, 2);
  REQUIRE_SAME(parts[0], iota<int32_t>({0, 6}));
  REQUIRE_SAME(parts[1], x);
}

TEST_CASE("Split with num_outputs makes the last chunk smaller", "[movement][split]") {
  Tensor x = iota<uint8_t>({7});
  std::vector<Tensor> parts = runOp("Split", {x}, attrs({{"num_outputs", 4}}), 4);
  REQUIRE_SAME(parts[0], Tensor::fromVector<uint8_t>({2}, {0, 1}));
  REQUIRE_SAME(parts[1], Tensor::fromVector<uint8_t>({2}, {2, 3}));
  REQUIRE_SAME(parts[2], Tensor::fromVector<uint8_t>({2}, {4, 5}));
  REQUIRE_SAME(parts[3], Tensor::fromVector<uint8_t>({1}, {6}));
  parts = runOp("Split", {iota<uint8_t>({2}), Tensor()}, attrs({{"num_outputs", 3}}), 3);
  REQUIRE_SAME(parts[2], iota<uint8_t>({0}));
}

TEST_CASE("Split rejects inconsistent sizes", "[movement][split]") {
  Tensor x = iota<float>({5});
  auto split = [](std::vector<Tensor> in, AttrMap a, size_t n) { return [=] { runOp("Split", in, a, n); }; };
  CHECK(thrownKind(split({x}, attrs({{"num_outputs", 4}}), 4)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(split({x}, attrs({{"num_outputs", 2}}), 3)) == ErrorKind::InvalidModel);
  CHECK(thrownKind(split({x, ints({2, 3})}, attrs({{"num_outputs", 2}}), 2)) == ErrorKind::InvalidModel);
  CHECK(thrownKind(split({x, ints({2, 2})}, {}, 2)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(split({x, ints({2, 3})}, {}, 3)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(split({x, ints({6, -1})}, {}, 2)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(split({x}, attrs({{"axis", 1}}), 1)) == ErrorKind::ShapeInference);
}
