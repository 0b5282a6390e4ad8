#include "Helpers.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor indices(Shape shape, const std::vector<int64_t>& values) {
  return Tensor::fromVector<int64_t>(std::move(shape), values);
}

} // namespace

TEST_CASE("ArgMax and ArgMin along an axis", "[argmax]") {
  Tensor x = f32({2, 2}, {2, 1, 3, 10});
  REQUIRE_CLOSE(runOp1("ArgMax", {x}), indices({1, 2}, {1, 1}));
  REQUIRE_CLOSE(runOp1("ArgMax", {x}, attrs({{"axis", 1}})), indices({2, 1}, {0, 1}));
  REQUIRE_CLOSE(runOp1("ArgMax", {x}, attrs({{"axis", -1}, {"keepdims", 0}})), indices({2}, {0, 1}));
  REQUIRE_CLOSE(runOp1("ArgMin", {x}), indices({1, 2}, {0, 0}));
  REQUIRE_CLOSE(runOp1("ArgMin", {x}, attrs({{"axis", 1}, {"keepdims", 0}})), indices({2}, {1, 0}));
}

TEST_CASE("ArgMax walks a middle axis column by column", "[argmax]") {
  // [2, 3, 2]: the reduced axis has inner size 2.
  Tensor x = f32({2, 3, 2}, {0, 9, 5, 1, 2, 3, /**/ 7, 7, 8, 6, 1, 9});
  REQUIRE_CLOSE(runOp1("ArgMax", {x}, attrs({{"axis", 1}})), indices({2, 1, 2}, {1, 0, 1, 2}));
  REQUIRE_CLOSE(runOp1("ArgMin", {x}, attrs({{"axis", -2}, {"keepdims", 0}})), indices({2, 2}, {0, 1, 2, 1}));
}

TEST_CASE("select_last_index picks the last of tied extremes", "[argmax]") {
  Tensor x = f32({2, 3}, {2, 5, 5, 1, 1, 0});
  AttrMap first = attrs({{"axis", 1}, {"keepdims", 0}});
  AttrMap last = attrs({{"axis", 1}, {"keepdims", 0}, {"select_last_index", 1}});
  REQUIRE_CLOSE(runOp1("ArgMax", {x}, first), indices({2}, {1, 0}));
  REQUIRE_CLOSE(runOp1("ArgMax", {x}, last), indices({2}, {2, 1}));
  REQUIRE_CLOSE(runOp1("ArgMin", {x}, first), indices({2}, {0, 2}));
  REQUIRE_CLOSE(runOp1("ArgMin", {f32({3}, {4, 4, 4})}, attrs({{"select_last_index", 1}})), indices({1}, {2}));
}

TEST_CASE("ArgMax on integer and half inputs", "[argmax][dtype]") {
  REQUIRE_CLOSE(runOp1("ArgMax", {Tensor::fromVector<int32_t>({4}, {-3, 7, -9, 7})}), indices({1}, {1}));
  REQUIRE_CLOSE(runOp1("ArgMin", {Tensor::fromVector<uint8_t>({3}, {200, 3, 255})}), indices({1}, {1}));
  REQUIRE_CLOSE(runOp1("ArgMax", {Tensor::fromVector<int64_t>({2}, {-5, -4})}), indices({1}, {1}));
  REQUIRE_CLOSE(runOp1("ArgMax", {tensorOf<Half>({3}, {0.5f, 2, 1})}), indices({1}, {1}));
  REQUIRE_CLOSE(runOp1("ArgMin", {tensorOf<BFloat16>({3}, {0.5f, 2, -1})}), indices({1}, {2}));
}

TEST_CASE("ArgMax rejects bad axes, empty axes and bools", "[argmax][errors]") {
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  CHECK(errorKindOf([&] { runOp1("ArgMax", {x}, attrs({{"axis", 2}})); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] { runOp1("ArgMin", {x}, attrs({{"axis", -3}})); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("ArgMax", {f32({2, 0}, {})}, attrs({{"axis", 1}})); }) ==
        ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("ArgMax", {Tensor::fromVector<bool>({1}, {true})}); }) == ErrorKind::Unsupported);
  // An empty tensor with a non-empty axis has an empty result.
  REQUIRE_CLOSE(runOp1("ArgMax", {f32({0, 2}, {})}, attrs({{"axis", 1}})), indices({0, 1}, {}));
}

TEST_CASE("Hardmax marks the first maximum along the axis", "[hardmax]") {
  Tensor x = f32({3, 3}, {3, 0, 1, 2, 2, 1, 0, -1, 5});
  REQUIRE_CLOSE(runOp1("Hardmax", {x}), f32({3, 3}, {1, 0, 0, 1, 0, 0, 0, 0, 1}));
  REQUIRE_CLOSE(runOp1("Hardmax", {x}, attrs({{"axis", 0}})), f32({3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1}));
  REQUIRE_CLOSE(runOp1("Hardmax", {tensorOf<BFloat16>({2}, {1, 3})}), tensorOf<BFloat16>({2}, {0, 1}));
  REQUIRE_CLOSE(runOp1("Hardmax", {f32({2, 0}, {})}), f32({2, 0}, {}));
  CHECK(errorKindOf([&] { runOp1("Hardmax", {x}, attrs({{"axis", 2}})); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("Hardmax", {Tensor::fromVector<int32_t>({1}, {1})}); }) == ErrorKind::Unsupported);
}
