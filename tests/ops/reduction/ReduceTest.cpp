#include "Helpers.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace tcx;
using namespace tcx::test;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// The ONNX spec's example input: shape [3, 2, 2] holding 1..12.
Tensor example() { return f32({3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }

Tensor reduce(const std::string& op, const Tensor& data, std::vector<int64_t> axes, AttrMap attributes = {}) {
  return runOp1(op, {data, i64s(axes)}, std::move(attributes));
}

} // namespace

TEST_CASE("ReduceSum over one axis keeps or drops it", "[reduce]") {
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {1}), f32({3, 1, 2}, {4, 6, 12, 14, 20, 22}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {1}, attrs({{"keepdims", 0}})), f32({3, 2}, {4, 6, 12, 14, 20, 22}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {-2}), f32({3, 1, 2}, {4, 6, 12, 14, 20, 22}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {0}), f32({1, 2, 2}, {15, 18, 21, 24}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {2}, attrs({{"keepdims", 0}})), f32({3, 2}, {3, 7, 11, 15, 19, 23}));
}

TEST_CASE("ReduceSum over axes that are not neighbours", "[reduce]") {
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {0, 2}), f32({1, 2, 1}, {33, 45}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {2, -3}, attrs({{"keepdims", 0}})), f32({2}, {33, 45}));
}

TEST_CASE("Reduce without axes folds every axis unless noop_with_empty_axes", "[reduce]") {
  REQUIRE_CLOSE(runOp1("ReduceSum", {example()}), f32({1, 1, 1}, {78}));
  REQUIRE_CLOSE(runOp1("ReduceSum", {example()}, attrs({{"keepdims", 0}})), f32({}, {78}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {}), f32({1, 1, 1}, {78}));
  REQUIRE_CLOSE(reduce("ReduceSum", example(), {}, attrs({{"noop_with_empty_axes", 1}})), example());
  REQUIRE_CLOSE(runOp1("ReduceMax", {example()}, attrs({{"noop_with_empty_axes", 1}})), example());
}

TEST_CASE("noop_with_empty_axes reduces each element on its own", "[reduce]") {
  // Per the clarified spec, the element maps (|x|, x*x, log) still apply.
  Tensor x = f32({2, 2}, {-1, 2, -3, 4});
  AttrMap noop = attrs({{"noop_with_empty_axes", 1}});
  REQUIRE_CLOSE(runOp1("ReduceL1", {x}, noop), f32({2, 2}, {1, 2, 3, 4}));
  REQUIRE_CLOSE(runOp1("ReduceL2", {x}, noop), f32({2, 2}, {1, 2, 3, 4}));
  REQUIRE_CLOSE(runOp1("ReduceSumSquare", {x}, noop), f32({2, 2}, {1, 4, 9, 16}));
  REQUIRE_CLOSE(runOp1("ReduceMean", {x}, noop), x);
  REQUIRE_CLOSE(runOp1("ReduceLogSumExp", {x}, noop), x);
  REQUIRE_CLOSE(runOp1("ReduceLogSum", {f32({2}, {1, 4})}, noop), f32({2}, {0, std::log(4.0f)}));
}

TEST_CASE("Every Reduce op along the last axis and along the first", "[reduce]") {
  Tensor x = f32({2, 3}, {1, -2, 3, 4, 5, -6});
  AttrMap drop = attrs({{"keepdims", 0}});
  auto lse = [](float a, float b, float c) { return std::log(std::exp(a) + std::exp(b) + std::exp(c)); };
  auto lse2 = [](float a, float b) { return std::log(std::exp(a) + std::exp(b)); };

  REQUIRE_CLOSE(reduce("ReduceSum", x, {1}, drop), f32({2}, {2, 3}));
  REQUIRE_CLOSE(reduce("ReduceMean", x, {1}, drop), f32({2}, {2.0f / 3, 1}));
  REQUIRE_CLOSE(reduce("ReduceMax", x, {1}, drop), f32({2}, {3, 5}));
  REQUIRE_CLOSE(reduce("ReduceMin", x, {1}, drop), f32({2}, {-2, -6}));
  REQUIRE_CLOSE(reduce("ReduceProd", x, {1}, drop), f32({2}, {-6, -120}));
  REQUIRE_CLOSE(reduce("ReduceL1", x, {1}, drop), f32({2}, {6, 15}));
  REQUIRE_CLOSE(reduce("ReduceL2", x, {1}, drop), f32({2}, {std::sqrt(14.0f), std::sqrt(77.0f)}));
  REQUIRE_CLOSE(reduce("ReduceSumSquare", x, {1}, drop), f32({2}, {14, 77}));
  REQUIRE_CLOSE(reduce("ReduceLogSumExp", x, {1}, drop), f32({2}, {lse(1, -2, 3), lse(4, 5, -6)}));

  REQUIRE_CLOSE(reduce("ReduceSum", x, {0}, drop), f32({3}, {5, 3, -3}));
  REQUIRE_CLOSE(reduce("ReduceMean", x, {0}, drop), f32({3}, {2.5f, 1.5f, -1.5f}));
  REQUIRE_CLOSE(reduce("ReduceMax", x, {0}, drop), f32({3}, {4, 5, 3}));
  REQUIRE_CLOSE(reduce("ReduceMin", x, {0}, drop), f32({3}, {1, -2, -6}));
  REQUIRE_CLOSE(reduce("ReduceProd", x, {0}, drop), f32({3}, {4, -10, -18}));
  REQUIRE_CLOSE(reduce("ReduceL1", x, {0}, drop), f32({3}, {5, 7, 9}));
  REQUIRE_CLOSE(reduce("ReduceL2", x, {0}, drop),
                f32({3}, {std::sqrt(17.0f), std::sqrt(29.0f), std::sqrt(45.0f)}));
  REQUIRE_CLOSE(reduce("ReduceSumSquare", x, {0}, drop), f32({3}, {17, 29, 45}));
  REQUIRE_CLOSE(reduce("ReduceLogSumExp", x, {0}, drop), f32({3}, {lse2(1, 4), lse2(-2, 5), lse2(3, -6)}));

  Tensor positive = f32({2, 2}, {1, 3, 2, 6});
  REQUIRE_CLOSE(reduce("ReduceLogSum", positive, {1}, drop), f32({2}, {std::log(4.0f), std::log(8.0f)}));
  REQUIRE_CLOSE(reduce("ReduceLogSum", positive, {0}, drop), f32({2}, {std::log(3.0f), std::log(9.0f)}));
}

TEST_CASE("Reducing an empty set gives the identity of each op", "[reduce]") {
  Tensor empty = f32({2, 0, 3}, {});
  auto identity = [&](const std::string& op) { return reduce(op, empty, {1}); };
  auto filled = [](float v) { return f32({2, 1, 3}, std::vector<float>(6, v)); };
  REQUIRE_CLOSE(identity("ReduceSum"), filled(0));
  REQUIRE_CLOSE(identity("ReduceProd"), filled(1));
  REQUIRE_CLOSE(identity("ReduceMax"), filled(-kInf));
  REQUIRE_CLOSE(identity("ReduceMin"), filled(kInf));
  REQUIRE_CLOSE(identity("ReduceL1"), filled(0));
  REQUIRE_CLOSE(identity("ReduceL2"), filled(0));
  REQUIRE_CLOSE(identity("ReduceSumSquare"), filled(0));
  REQUIRE_CLOSE(identity("ReduceLogSum"), filled(-kInf));
  REQUIRE_CLOSE(identity("ReduceLogSumExp"), filled(-kInf));
  REQUIRE_CLOSE(identity("ReduceMean"), filled(kNaN));

  Tensor ints = Tensor(DType::I32, {0, 2});
  REQUIRE_CLOSE(reduce("ReduceMax", ints, {0}, attrs({{"keepdims", 0}})),
                Tensor::fromVector<int32_t>({2}, {std::numeric_limits<int32_t>::lowest(),
                                                  std::numeric_limits<int32_t>::lowest()}));
  // A zero-sized kept axis gives an empty result, not an identity.
  REQUIRE_CLOSE(reduce("ReduceSum", empty, {2}), f32({2, 0, 1}, {}));
}

TEST_CASE("Reduce ops on f16 and bf16 accumulate in float", "[reduce][dtype]") {
  // 1000 ones: a bf16 accumulator would stop growing at 256.
  Tensor ones = tensorOf<BFloat16>({1000}, std::vector<float>(1000, 1.0f));
  REQUIRE_CLOSE(runOp1("ReduceSum", {ones}), tensorOf<BFloat16>({1}, {1000}));
  REQUIRE_CLOSE(runOp1("ReduceMean", {ones}), tensorOf<BFloat16>({1}, {1}));

  Tensor h = tensorOf<Half>({2, 2}, {1.5f, -2, 4, 0.25f});
  REQUIRE_CLOSE(reduce("ReduceSum", h, {0}), tensorOf<Half>({1, 2}, {5.5f, -1.75f}));
  REQUIRE_CLOSE(reduce("ReduceMax", h, {1}), tensorOf<Half>({2, 1}, {1.5f, 4}));
  REQUIRE_CLOSE(reduce("ReduceL2", h, {1}, attrs({{"keepdims", 0}})),
                tensorOf<Half>({2}, {2.5f, std::sqrt(16.0625f)}), 1e-3);
  REQUIRE_CLOSE(reduce("ReduceLogSumExp", tensorOf<Half>({2}, {3, 3}), {0}),
                tensorOf<Half>({1}, {3 + std::log(2.0f)}), 1e-3);

  Tensor d = Tensor::fromVector<double>({3}, {0.1, 0.2, 0.3});
  REQUIRE_CLOSE(runOp1("ReduceSum", {d}), Tensor::fromVector<double>({1}, {0.1 + 0.2 + 0.3}), 1e-15, 0);
}

TEST_CASE("Reduce ops on integers wrap like fixed-width arithmetic", "[reduce][dtype]") {
  Tensor i32 = Tensor::fromVector<int32_t>({2, 2}, {1, -2, 3, 4});
  REQUIRE_CLOSE(reduce("ReduceSum", i32, {1}), Tensor::fromVector<int32_t>({2, 1}, {-1, 7}));
  REQUIRE_CLOSE(reduce("ReduceProd", i32, {0}), Tensor::fromVector<int32_t>({1, 2}, {3, -8}));
  REQUIRE_CLOSE(reduce("ReduceMin", i32, {0, 1}), Tensor::fromVector<int32_t>({1, 1}, {-2}));
  REQUIRE_CLOSE(reduce("ReduceL1", i32, {1}), Tensor::fromVector<int32_t>({2, 1}, {3, 7}));
  REQUIRE_CLOSE(reduce("ReduceSumSquare", i32, {1}), Tensor::fromVector<int32_t>({2, 1}, {5, 25}));
  // An integer mean truncates toward zero.
  REQUIRE_CLOSE(reduce("ReduceMean", Tensor::fromVector<int64_t>({2}, {-2, -3}), {0}),
                Tensor::fromVector<int64_t>({1}, {-2}));

  REQUIRE_CLOSE(runOp1("ReduceSum", {Tensor::fromVector<uint8_t>({2}, {200, 100})}),
                Tensor::fromVector<uint8_t>({1}, {44}));
  REQUIRE_CLOSE(runOp1("ReduceMax", {Tensor::fromVector<int8_t>({3}, {-128, -5, -7})}),
                Tensor::fromVector<int8_t>({1}, {-5}));
  REQUIRE_CLOSE(runOp1("ReduceProd", {Tensor::fromVector<int64_t>({3}, {1000000, 1000000, 3})}),
                Tensor::fromVector<int64_t>({1}, {3000000000000}));

  Tensor flags = Tensor::fromVector<bool>({2, 2}, {true, false, false, false});
  REQUIRE_CLOSE(reduce("ReduceMax", flags, {1}), Tensor::fromVector<bool>({2, 1}, {true, false}));
  REQUIRE_CLOSE(reduce("ReduceMin", flags, {0}), Tensor::fromVector<bool>({1, 2}, {false, false}));
}

TEST_CASE("ReduceLogSumExp does not overflow and ReduceMax keeps NaN", "[reduce]") {
  REQUIRE_CLOSE(runOp1("ReduceLogSumExp", {f32({2}, {1000, 1000})}), f32({1}, {1000 + std::log(2.0f)}));
  REQUIRE_CLOSE(runOp1("ReduceLogSumExp", {f32({3}, {-kInf, 2, -kInf})}), f32({1}, {2}));
  REQUIRE_CLOSE(runOp1("ReduceLogSumExp", {f32({2}, {-kInf, -kInf})}), f32({1}, {-kInf}));
  REQUIRE_CLOSE(runOp1("ReduceMax", {f32({3}, {1, kNaN, 2})}), f32({1}, {kNaN}));
  REQUIRE_CLOSE(runOp1("ReduceMin", {f32({3}, {1, kNaN, 2})}), f32({1}, {kNaN}));
}

TEST_CASE("Reductions over every axis subset match a direct sum", "[reduce]") {
  // [3, 4, 5, 6] with rows longer than the driver's 8 lanes, summed along all
  // 16 subsets of axes; integer values keep float sums exact.
  const Shape shape = {3, 4, 5, 6};
  std::vector<float> values(360);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>((i * 7) % 11) - 5;
  Tensor x = f32(shape, values);
  for (int subset = 1; subset < 16; ++subset) {
    std::vector<int64_t> axes;
    Shape outShape;
    for (int d = 0; d < 4; ++d) {
      if (subset & (1 << d))
        axes.push_back(d);
      else
        outShape.push_back(shape[d]);
    }
    std::vector<float> expected(numElements(outShape), 0.0f);
    for (int64_t i = 0; i < 360; ++i) {
      int64_t rest = i, out = 0, scale = 1;
      for (int d = 3; d >= 0; --d) {
        int64_t index = rest % shape[d];
        rest /= shape[d];
        if (!(subset & (1 << d))) {
          out += index * scale;
          scale *= shape[d];
        }
      }
      expected[out] += values[i];
    }
    INFO("subset " << subset);
    REQUIRE_CLOSE(reduce("ReduceSum", x, axes, attrs({{"keepdims", 0}})), f32(outShape, expected));
  }
}

TEST_CASE("Reduce ops reject bad axes and dtypes", "[reduce][errors]") {
  auto kindOf = [](const std::string& op, const Tensor& data, std::vector<int64_t> axes) {
    return errorKindOf([&] { reduce(op, data, std::move(axes)); });
  };
  CHECK(kindOf("ReduceSum", example(), {3}) == ErrorKind::ShapeInference);
  CHECK(kindOf("ReduceSum", example(), {-4}) == ErrorKind::ShapeInference);
  CHECK(kindOf("ReduceMean", example(), {1, -2}) == ErrorKind::ShapeInference);
  CHECK(kindOf("ReduceMax", f32({}, {1}), {0}) == ErrorKind::ShapeInference);
  CHECK(kindOf("ReduceSum", Tensor::fromVector<bool>({2}, {true, false}), {0}) == ErrorKind::Unsupported);
  CHECK(kindOf("ReduceL2", Tensor::fromVector<int32_t>({2}, {1, 2}), {0}) == ErrorKind::Unsupported);
  CHECK(kindOf("ReduceLogSumExp", Tensor::fromVector<int64_t>({2}, {1, 2}), {0}) == ErrorKind::Unsupported);
  CHECK(errorKindOf([] { runOp1("ReduceSum", {example(), f32({1}, {0})}); }) == ErrorKind::InvalidModel);
}
