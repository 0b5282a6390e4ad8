#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tcx;
using namespace tcx::test;

namespace {

// Layer normalisation with the loops written out, in double; scale and bias
// have the full normalized shape.
Tensor naiveLayerNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, int64_t axis, double epsilon) {
  int64_t rows = 1, n = 1;
  for (int64_t i = 0; i < x.rank(); ++i) (i < axis ? rows : n) *= x.shape()[i];
  Tensor y(DType::F32, x.shape());
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) mean += x.elementAsDouble(r * n + i) / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) var += std::pow(x.elementAsDouble(r * n + i) - mean, 2) / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i)
      y.data<float>()[r * n + i] = static_cast<float>((x.elementAsDouble(r * n + i) - mean) / std::sqrt(var + epsilon) *
                                                          scale.elementAsDouble(i) +
                                                      bias.elementAsDouble(i));
  }
  return y;
}

} // namespace

TEST_CASE("LayerNormalization hand-computed with statistics", "[LayerNormalization]") {
  Tensor x = Tensor::fromVector<float>({2, 3}, {1, 2, 3, 2, 4, 6});
  Tensor scale = Tensor::fromVector<float>({3}, {1, 1, 2});
  std::vector<Tensor> r = runOp("LayerNormalization", {x, scale, Tensor()}, attrs({{"epsilon", 0.0f}}), 3);
  const float s = std::sqrt(1.5f);
  REQUIRE_CLOSE(r[0], Tensor::fromVector<float>({2, 3}, {-s, 0, 2 * s, -s, 0, 2 * s}), 1e-6, 1e-6);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<float>({2, 1}, {2, 4}), 1e-6, 0);
  REQUIRE_CLOSE(r[2], Tensor::fromVector<float>({2, 1}, {s, std::sqrt(3.0f / 8)}), 1e-6, 0);
}

TEST_CASE("LayerNormalization matches a reference on every axis", "[LayerNormalization]") {
  const Shape shape{2, 3, 4, 5};
  Tensor x = pattern(shape, 1);
  for (int64_t axis = -4; axis < 4; ++axis) {
    DYNAMIC_SECTION("axis " << axis) {
      const int64_t a = axis < 0 ? axis + 4 : axis;
      Shape normalized(shape.begin() + a, shape.end());
      Tensor scale = pattern(normalized, 2), bias = pattern(normalized, 3);
      std::vector<Tensor> r =
          runOp("LayerNormalization", {x, scale, bias}, attrs({{"axis", axis}, {"epsilon", 1e-3f}}), 3);
      REQUIRE_CLOSE(r[0], naiveLayerNorm(x, scale, bias, a, 1e-3), 1e-5, 1e-5);
      Shape stats = shape;
      for (int64_t i = a; i < 4; ++i) stats[i] = 1;
      REQUIRE(r[1].shape() == stats);
      REQUIRE(r[2].shape() == stats);
    }
  }
}

TEST_CASE("LayerNormalization broadcast scale and dtypes", "[LayerNormalization]") {
  Tensor x = pattern({3, 2, 8}, 4);
  // Scale [8] and bias [1, 1] broadcast to the normalized shape [2, 8].
  Tensor scale = pattern({8}, 5), bias = Tensor::fromVector<float>({1, 1}, {0.5f});
  Tensor fullScale(DType::F32, {2, 8}), fullBias(DType::F32, {2, 8});
  for (int64_t i = 0; i < 16; ++i) {
    fullScale.data<float>()[i] = scale.data<float>()[i % 8];
    fullBias.data<float>()[i] = 0.5f;
  }
  Tensor expected = naiveLayerNorm(x, fullScale, fullBias, 1, 1e-5);
  REQUIRE_CLOSE(runOp1("LayerNormalization", {x, scale, bias}, attrs({{"axis", 1}})), expected, 1e-5, 1e-5);
  for (DType t : {DType::F16, DType::BF16, DType::F64}) {
    std::vector<Tensor> r =
        runOp("LayerNormalization", {castTo(x, t), castTo(scale, t), castTo(bias, t)}, attrs({{"axis", 1}}), 3);
    REQUIRE(r[0].dtype() == t);
    REQUIRE(r[1].dtype() == DType::F32);
    REQUIRE_CLOSE(castTo(r[0], DType::F32), expected, 1e-2, 1e-2);
  }
}

TEST_CASE("LayerNormalization rejects bad operands", "[LayerNormalization]") {
  Tensor x = pattern({2, 3}, 1);
  CHECK(errorKindOf([&] { runOp1("LayerNormalization", {x, pattern({2}, 2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("LayerNormalization", {x, pattern({3}, 2)}, attrs({{"axis", 2}}));
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("LayerNormalization", {x, pattern({3}, 2)}, attrs({{"stash_type", 16}}));
        }) == ErrorKind::Unsupported);
}

TEST_CASE("BatchNormalization inference", "[BatchNormalization]") {
  Tensor x = Tensor::fromVector<float>({1, 2, 1, 2}, {1, 2, 3, 4});
  Tensor scale = Tensor::fromVector<float>({2}, {1, 2}), bias = Tensor::fromVector<float>({2}, {0, 1});
  Tensor mean = Tensor::fromVector<float>({2}, {1, 3}), var = Tensor::fromVector<float>({2}, {4, 1});
  Tensor expected = Tensor::fromVector<float>({1, 2, 1, 2}, {0, 0.5, 1, 3});
  AttrMap a = attrs({{"epsilon", 0.0f}, {"momentum", 0.5f}});
  REQUIRE_CLOSE(runOp1("BatchNormalization", {x, scale, bias, mean, var}, a), expected, 1e-6, 0);
  // Statistics of another dtype than X.
  for (DType t : {DType::F16, DType::BF16, DType::F64})
    REQUIRE_CLOSE(runOp1("BatchNormalization", {castTo(x, t), scale, bias, castTo(mean, t), castTo(var, t)}, a),
                  castTo(expected, t), 0, 0);
  a.set("training_mode", 1);
  CHECK(errorKindOf([&] { runOp1("BatchNormalization", {x, scale, bias, mean, var}, a); }) == ErrorKind::Unsupported);
  CHECK(errorKindOf([&] {
          runOp1("BatchNormalization", {x, pattern({3}, 1), bias, mean, var});
        }) == ErrorKind::ShapeInference);
}

TEST_CASE("InstanceNormalization", "[InstanceNormalization]") {
  Tensor x = Tensor::fromVector<float>({1, 2, 2}, {1, 3, 2, 2});
  Tensor scale = Tensor::fromVector<float>({2}, {1, 2}), bias = Tensor::fromVector<float>({2}, {0, 1});
  const float h = std::sqrt(0.5f);
  REQUIRE_CLOSE(runOp1("InstanceNormalization", {x, scale, bias}, attrs({{"epsilon", 1.0f}})),
                Tensor::fromVector<float>({1, 2, 2}, {-h, h, 1, 1}), 1e-6, 1e-6);
  // Every plane of a larger input against layer normalisation over its spatial axes.
  Tensor big = pattern({2, 3, 4, 5}, 6), s = pattern({3}, 7), b = pattern({3}, 8);
  Tensor y = runOp1("InstanceNormalization", {big, s, b});
  Tensor unit = Tensor::fromVector<float>({1}, {1}), zero = Tensor::fromVector<float>({1}, {0});
  for (int64_t plane = 0; plane < 6; ++plane) {
    Tensor p(DType::F32, {1, 20}), yp(DType::F32, {1, 20});
    std::copy_n(big.data<float>().begin() + plane * 20, 20, p.data<float>().begin());
    std::copy_n(y.data<float>().begin() + plane * 20, 20, yp.data<float>().begin());
    Tensor sc(DType::F32, {20}), bc(DType::F32, {20});
    std::fill_n(sc.data<float>().begin(), 20, s.data<float>()[plane % 3]);
    std::fill_n(bc.data<float>().begin(), 20, b.data<float>()[plane % 3]);
    REQUIRE_CLOSE(yp, naiveLayerNorm(p, sc, bc, 1, 1e-5), 1e-5, 1e-5);
  }
  CHECK(errorKindOf([&] { runOp1("InstanceNormalization", {big, pattern({2}, 1), b}); }) == ErrorKind::ShapeInference);
}

TEST_CASE("LpNormalization", "[LpNormalization]") {
  Tensor x = Tensor::fromVector<float>({2, 2}, {3, 4, 1, -1});
  const float h = std::sqrt(0.5f);
  REQUIRE_CLOSE(runOp1("LpNormalization", {x}), Tensor::fromVector<float>({2, 2}, {.6f, .8f, h, -h}), 1e-6, 0);
  REQUIRE_CLOSE(runOp1("LpNormalization", {x}, attrs({{"p", 1}})),
                Tensor::fromVector<float>({2, 2}, {3.f / 7, 4.f / 7, .5f, -.5f}), 1e-6, 0);
  REQUIRE_CLOSE(runOp1("LpNormalization", {x}, attrs({{"p", 1}, {"axis", 0}})),
                Tensor::fromVector<float>({2, 2}, {.75f, .8f, .25f, -.2f}), 1e-6, 0);
  CHECK(errorKindOf([&] { runOp1("LpNormalization", {x}, attrs({{"p", 3}})); }) == ErrorKind::InvalidModel);
}
