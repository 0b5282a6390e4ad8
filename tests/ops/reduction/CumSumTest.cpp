#include "Helpers.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor axis(int64_t a) { return Tensor::scalar<int64_t>(a); }

} // namespace

TEST_CASE("CumSum of a vector, exclusive and reversed", "[cumsum]") {
  Tensor x = f32({5}, {1, 2, 3, 4, 5});
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(0)}), f32({5}, {1, 3, 6, 10, 15}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(0)}, attrs({{"exclusive", 1}})), f32({5}, {0, 1, 3, 6, 10}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(0)}, attrs({{"reverse", 1}})), f32({5}, {15, 14, 12, 9, 5}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(0)}, attrs({{"exclusive", 1}, {"reverse", 1}})),
                f32({5}, {14, 12, 9, 5, 0}));
}

TEST_CASE("CumSum along each axis of a matrix", "[cumsum]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(0)}), f32({2, 3}, {1, 2, 3, 5, 7, 9}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(1)}), f32({2, 3}, {1, 3, 6, 4, 9, 15}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, axis(-1)}), f32({2, 3}, {1, 3, 6, 4, 9, 15}));
  REQUIRE_CLOSE(runOp1("CumSum", {x, Tensor::fromVector<int32_t>({1}, {0})}, attrs({{"reverse", 1}})),
                f32({2, 3}, {5, 7, 9, 4, 5, 6}));
}

TEST_CASE("CumSum on integers, halves and doubles", "[cumsum][dtype]") {
  REQUIRE_CLOSE(runOp1("CumSum", {Tensor::fromVector<int64_t>({3}, {-1, 5, 7}), axis(0)}),
                Tensor::fromVector<int64_t>({3}, {-1, 4, 11}));
  REQUIRE_CLOSE(runOp1("CumSum", {Tensor::fromVector<int32_t>({2, 2}, {1, 2, 3, 4}), axis(1)},
                       attrs({{"exclusive", 1}})),
                Tensor::fromVector<int32_t>({2, 2}, {0, 1, 0, 3}));
  // 300 ones: the running sum is kept in float, so bf16 rounding applies only
  // to each output.
  Tensor ones = tensorOf<BFloat16>({300}, std::vector<float>(300, 1.0f));
  Tensor sums = runOp1("CumSum", {ones, axis(0)});
  CHECK(float(sums.data<BFloat16>()[299]) == 300.0f);
  REQUIRE_CLOSE(runOp1("CumSum", {tensorOf<Half>({3}, {0.5f, 0.25f, 2}), axis(0)}),
                tensorOf<Half>({3}, {0.5f, 0.75f, 2.75f}));
  REQUIRE_CLOSE(runOp1("CumSum", {Tensor::fromVector<double>({2}, {0.1, 0.2}), axis(0)}),
                Tensor::fromVector<double>({2}, {0.1, 0.1 + 0.2}), 1e-15, 0);
}

TEST_CASE("CumSum rejects bad axes", "[cumsum][errors]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(errorKindOf([&] { runOp1("CumSum", {x, axis(2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] { runOp1("CumSum", {x, axis(-3)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] { runOp1("CumSum", {x, i64s({0, 1})}); }) == ErrorKind::InvalidModel);
  CHECK(errorKindOf([&] { runOp1("CumSum", {x, f32({}, {0})}); }) == ErrorKind::InvalidModel);
  CHECK(errorKindOf([] { runOp1("CumSum", {Tensor::fromVector<bool>({1}, {true}), axis(0)}); }) ==
        ErrorKind::Unsupported);
}
