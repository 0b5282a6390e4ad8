#include "Helpers.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace tcx;
using namespace tcx::test;

// softmax([1, 2, 3]) and log softmax([1, 2, 3]); shifting the input by a
// constant changes neither.
static const std::vector<float> kSoftmax123 = {0.09003057f, 0.24472847f, 0.66524096f};
static const std::vector<float> kLogSoftmax123 = {-2.40760596f, -1.40760596f, -0.40760596f};

TEST_CASE("Softmax and LogSoftmax along the last axis", "[softmax]") {
  REQUIRE_CLOSE(runOp1("Softmax", {f32({3}, {1, 2, 3})}), f32({3}, kSoftmax123));
  REQUIRE_CLOSE(runOp1("LogSoftmax", {f32({3}, {1, 2, 3})}), f32({3}, kLogSoftmax123));
  Tensor rows = f32({2, 3}, {1, 2, 3, -1, -1, -1});
  const float third = 1.0f / 3;
  std::vector<float> expected = kSoftmax123;
  expected.insert(expected.end(), {third, third, third});
  REQUIRE_CLOSE(runOp1("Softmax", {rows}), f32({2, 3}, expected));
  REQUIRE_CLOSE(runOp1("Softmax", {rows}, attrs({{"axis", 1}})), f32({2, 3}, expected));
}

TEST_CASE("Softmax and LogSoftmax along a leading axis", "[softmax]") {
  // Columns (1, 3) and (2, 4): each is softmax([0, 2]).
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  const float a = 0.11920292f, b = 0.88079708f;
  REQUIRE_CLOSE(runOp1("Softmax", {x}, attrs({{"axis", 0}})), f32({2, 2}, {a, a, b, b}));
  REQUIRE_CLOSE(runOp1("LogSoftmax", {x}, attrs({{"axis", -2}})),
                f32({2, 2}, {std::log(a), std::log(a), std::log(b), std::log(b)}));
}

TEST_CASE("Softmax and LogSoftmax are stable for large inputs", "[softmax]") {
  REQUIRE_CLOSE(runOp1("Softmax", {f32({3}, {1000, 1001, 1002})}), f32({3}, kSoftmax123));
  REQUIRE_CLOSE(runOp1("LogSoftmax", {f32({3}, {1000, 1001, 1002})}), f32({3}, kLogSoftmax123));
  REQUIRE_CLOSE(runOp1("Softmax", {f32({2}, {-1000, 1000})}), f32({2}, {0, 1}));
  REQUIRE_CLOSE(runOp1("LogSoftmax", {f32({2}, {-1000, 1000})}), f32({2}, {-2000, 0}));
  const float inf = std::numeric_limits<float>::infinity();
  REQUIRE_CLOSE(runOp1("Softmax", {f32({3}, {-inf, 0, 0})}), f32({3}, {0, 0.5f, 0.5f}));
}

TEST_CASE("Softmax matches a double-precision reference over a wide range", "[softmax]") {
  // exp(x - max) spans [e^-150, 1], down to values that flush to zero.
  std::vector<float> x;
  for (int i = 0; i < 301; ++i) x.push_back(-120.0f + 0.5f * static_cast<float>(i) + 0.01f * static_cast<float>(i % 7));
  double sum = 0;
  for (float v : x) sum += std::exp(static_cast<double>(v) - x.back());
  std::vector<float> softmax, logSoftmax;
  for (float v : x) {
    softmax.push_back(static_cast<float>(std::exp(static_cast<double>(v) - x.back()) / sum));
    logSoftmax.push_back(static_cast<float>(static_cast<double>(v) - x.back() - std::log(sum)));
  }
  Tensor in = f32({static_cast<int64_t>(x.size())}, x);
  REQUIRE_CLOSE(runOp1("Softmax", {in}), f32(in.shape(), softmax), 1e-5, 1e-30);
  REQUIRE_CLOSE(runOp1("LogSoftmax", {in}), f32(in.shape(), logSoftmax), 1e-6);
}

TEST_CASE("Softmax on f16, bf16 and f64", "[softmax][dtype]") {
  REQUIRE_CLOSE(runOp1("Softmax", {tensorOf<Half>({3}, {1001, 1002, 1003})}), tensorOf<Half>({3}, kSoftmax123),
                1e-3);
  REQUIRE_CLOSE(runOp1("LogSoftmax", {tensorOf<BFloat16>({3}, {1, 2, 3})}), tensorOf<BFloat16>({3}, kLogSoftmax123),
                1e-2);
  Tensor d = Tensor::fromVector<double>({2}, {0, std::log(3.0)});
  REQUIRE_CLOSE(runOp1("Softmax", {d}), Tensor::fromVector<double>({2}, {0.25, 0.75}), 1e-14);
}

TEST_CASE("Softmax rejects bad axes and integers", "[softmax][errors]") {
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  CHECK(errorKindOf([&] { runOp1("Softmax", {x}, attrs({{"axis", 2}})); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] { runOp1("LogSoftmax", {x}, attrs({{"axis", -3}})); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("Softmax", {f32({}, {1})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("Softmax", {Tensor::fromVector<int64_t>({2}, {1, 2})}); }) ==
        ErrorKind::Unsupported);
}
