#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Gather takes slices along an axis", "[movement][gather]") {
  Tensor data = Tensor::fromVector<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor indices = Tensor::fromVector<int64_t>({2, 2}, {0, 1, 1, 2});
  REQUIRE_SAME(runOp1("Gather", {data, indices}),
               Tensor::fromVector<float>({2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6}));
  Tensor square = iota<float>({3, 3});
  Tensor columns = Tensor::fromVector<int32_t>({1, 2}, {0, 2});
  REQUIRE_SAME(runOp1("Gather", {square, columns}, attrs({{"axis", 1}})),
               Tensor::fromVector<float>({3, 1, 2}, {0, 2, 3, 5, 6, 8}));
  REQUIRE_SAME(runOp1("Gather", {square, columns}, attrs({{"axis", -1}})),
               Tensor::fromVector<float>({3, 1, 2}, {0, 2, 3, 5, 6, 8}));
  REQUIRE_SAME(runOp1("Gather", {data, Tensor::scalar<int64_t>(1)}), Tensor::fromVector<float>({2}, {3, 4}));
}

TEST_CASE("Gather wraps negative indices and moves any dtype", "[movement][gather]") {
  Tensor data = Tensor::fromVector<int64_t>({3}, {10, 20, 30});
  REQUIRE_SAME(runOp1("Gather", {data, ints({-1, 0, -3})}), Tensor::fromVector<int64_t>({3}, {30, 10, 10}));
  REQUIRE_SAME(runOp1("Gather", {halves({2, 2}, {1, 2, 3, 4}), ints({-1})}), halves({1, 2}, {3, 4}));
  REQUIRE_SAME(runOp1("Gather", {Tensor::fromVector<bool>({2}, {false, true}), ints({1, 1, 0})}),
               Tensor::fromVector<bool>({3}, {true, true, false}));
  REQUIRE_SAME(runOp1("Gather", {data, ints({})}), iota<int64_t>({0}));
}

TEST_CASE("Gather rejects out-of-range indices", "[movement][gather]") {
  Tensor data = iota<float>({3, 2});
  CHECK(thrownKind([&] { runOp1("Gather", {data, ints({3})}); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { runOp1("Gather", {data, ints({-4})}); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { runOp1("Gather", {data, ints({2})}, attrs({{"axis", 1}})); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { runOp1("Gather", {data, Tensor::fromVector<float>({1}, {0})}); }) ==
        ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { runOp1("Gather", {data, ints({0})}, attrs({{"axis", 2}})); }) ==
        ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Gather", {Tensor::scalar<float>(1), ints({0})}); }) == ErrorKind::ShapeInference);
}

TEST_CASE("GatherElements picks single elements along an axis", "[movement][gatherelements]") {
  Tensor data = Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4});
  REQUIRE_SAME(runOp1("GatherElements", {data, Tensor::fromVector<int64_t>({2, 2}, {0, 0, 1, 0})},
                      attrs({{"axis", 1}})),
               Tensor::fromVector<float>({2, 2}, {1, 1, 4, 3}));
  Tensor nine = Tensor::fromVector<int32_t>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  REQUIRE_SAME(runOp1("GatherElements", {nine, Tensor::fromVector<int32_t>({2, 3}, {1, 2, 0, 2, 0, 0})}),
               Tensor::fromVector<int32_t>({2, 3}, {4, 8, 3, 7, 2, 3}));
  REQUIRE_SAME(runOp1("GatherElements", {nine, Tensor::fromVector<int64_t>({2, 3}, {-1, -2, 0, -2, 0, 0})}),
               Tensor::fromVector<int32_t>({2, 3}, {7, 5, 3, 4, 2, 3}));
  REQUIRE_SAME(runOp1("GatherElements", {nine, iota<int64_t>({0, 3})}), iota<int32_t>({0, 3}));
}

TEST_CASE("GatherElements rejects bad indices", "[movement][gatherelements]") {
  Tensor data = iota<float>({2, 2});
  CHECK(thrownKind([&] { runOp1("GatherElements", {data, Tensor::fromVector<int64_t>({1, 1}, {2})}); }) ==
        ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { runOp1("GatherElements", {data, ints({0})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] {
          runOp1("GatherElements", {data, Tensor::fromVector<int64_t>({1, 3}, {0, 0, 0})});
        }) == ErrorKind::ShapeInference);
}

TEST_CASE("GatherND follows the ONNX examples", "[movement][gathernd]") {
  Tensor square = Tensor::fromVector<int32_t>({2, 2}, {0, 1, 2, 3});
  REQUIRE_SAME(runOp1("GatherND", {square, Tensor::fromVector<int64_t>({2, 2}, {0, 0, 1, 1})}),
               Tensor::fromVector<int32_t>({2}, {0, 3}));
  REQUIRE_SAME(runOp1("GatherND", {square, Tensor::fromVector<int64_t>({2, 1}, {1, 0})}),
               Tensor::fromVector<int32_t>({2, 2}, {2, 3, 0, 1}));
  Tensor cube = iota<float>({2, 2, 2});
  REQUIRE_SAME(runOp1("GatherND", {cube, Tensor::fromVector<int64_t>({2, 2}, {0, 1, 1, 0})}),
               Tensor::fromVector<float>({2, 2}, {2, 3, 4, 5}));
  REQUIRE_SAME(runOp1("GatherND", {cube, Tensor::fromVector<int64_t>({2, 1, 2}, {0, 1, 1, 0})}),
               Tensor::fromVector<float>({2, 1, 2}, {2, 3, 4, 5}));
  REQUIRE_SAME(runOp1("GatherND", {cube, Tensor::fromVector<int64_t>({2, 1}, {1, 0})}, attrs({{"batch_dims", 1}})),
               Tensor::fromVector<float>({2, 2}, {2, 3, 4, 5}));
  REQUIRE_SAME(runOp1("GatherND", {square, Tensor::fromVector<int64_t>({1, 2}, {-1, -2})}),
               Tensor::fromVector<int32_t>({1}, {2}));
}

TEST_CASE("GatherND rejects inconsistent shapes and indices", "[movement][gathernd]") {
  Tensor cube = iota<float>({2, 2, 2});
  auto gather = [](Tensor data, Tensor indices, int64_t batchDims) {
    return [=] { runOp1("GatherND", {data, indices}, attrs({{"batch_dims", batchDims}})); };
  };
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({1, 4}, {0, 0, 0, 0}), 0)) ==
        ErrorKind::ShapeInference);
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({3, 1}, {0, 0, 0}), 1)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({2, 1}, {0, 0}), 2)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({1, 0}, {}), 0)) == ErrorKind::ShapeInference);
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({1, 2}, {0, 2}), 0)) == ErrorKind::InvalidModel);
  CHECK(thrownKind(gather(cube, Tensor::fromVector<int64_t>({1, 2}, {-3, 0}), 0)) == ErrorKind::InvalidModel);
}
