#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor iota(Shape shape) {
  Tensor t(DType::F32, std::move(shape));
  std::iota(t.data<float>().begin(), t.data<float>().end(), 1.0f);
  return t;
}

using Ints = std::vector<int64_t>;

} // namespace

TEST_CASE("MaxPool 2-D with indices", "[MaxPool]") {
  Tensor x = iota({1, 1, 4, 4});
  std::vector<Tensor> r = runOp("MaxPool", {x}, attrs({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}}), 2);
  REQUIRE_CLOSE(r[0], Tensor::fromVector<float>({1, 1, 2, 2}, {6, 8, 14, 16}), 0, 0);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15}), 0, 0);
  // Column-major: the index of (h, w) is h + 4 * w.
  r = runOp("MaxPool", {x}, attrs({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"storage_order", 1}}), 2);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({1, 1, 2, 2}, {5, 13, 7, 15}), 0, 0);
  // Indices count whole planes before the one pooled.
  r = runOp("MaxPool", {iota({2, 1, 2, 2})}, attrs({{"kernel_shape", Ints{2, 2}}}), 2);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({2, 1, 1, 1}, {3, 7}), 0, 0);
}

TEST_CASE("MaxPool ceil_mode, pads, dilations, auto_pad", "[MaxPool]") {
  Tensor x = iota({1, 1, 4, 4});
  AttrMap k3s2 = attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}});
  REQUIRE_CLOSE(runOp1("MaxPool", {x}, k3s2), Tensor::fromVector<float>({1, 1, 1, 1}, {11}), 0, 0);
  k3s2.set("ceil_mode", 1);
  REQUIRE_CLOSE(runOp1("MaxPool", {x}, k3s2), Tensor::fromVector<float>({1, 1, 2, 2}, {11, 12, 15, 16}), 0, 0);

  // Padding is never the maximum, even where the input is negative.
  Tensor neg = iota({1, 1, 3, 3});
  for (float& v : neg.data<float>()) v = -v;
  REQUIRE_CLOSE(
      runOp1("MaxPool", {neg}, attrs({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}})),
      Tensor::fromVector<float>({1, 1, 4, 4}, {-1, -1, -2, -3, -1, -1, -2, -3, -4, -4, -5, -6, -7, -7, -8, -9}), 0, 0);

  Tensor line = Tensor::fromVector<float>({1, 1, 7}, {1, 5, 2, 7, 3, 0, 4});
  std::vector<Tensor> r = runOp("MaxPool", {line}, attrs({{"kernel_shape", Ints{2}}, {"dilations", Ints{3}}}), 2);
  REQUIRE_CLOSE(r[0], Tensor::fromVector<float>({1, 1, 4}, {7, 5, 2, 7}), 0, 0);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({1, 1, 4}, {3, 1, 2, 3}), 0, 0);

  Tensor five = Tensor::fromVector<float>({1, 1, 5}, {1, 5, 2, 7, 3});
  REQUIRE_CLOSE(runOp1("MaxPool", {five}, attrs({{"kernel_shape", Ints{2}}, {"auto_pad", "SAME_UPPER"}})),
                Tensor::fromVector<float>({1, 1, 5}, {5, 5, 7, 7, 3}), 0, 0);
  REQUIRE_CLOSE(runOp1("MaxPool", {five}, attrs({{"kernel_shape", Ints{2}}, {"auto_pad", "SAME_LOWER"}})),
                Tensor::fromVector<float>({1, 1, 5}, {1, 5, 5, 7, 7}), 0, 0);
  REQUIRE_CLOSE(
      runOp1("MaxPool", {five}, attrs({{"kernel_shape", Ints{2}}, {"auto_pad", "VALID"}, {"strides", Ints{2}}})),
      Tensor::fromVector<float>({1, 1, 2}, {5, 7}), 0, 0);
}

TEST_CASE("MaxPool 3-D and dtypes", "[MaxPool]") {
  Tensor x = iota({1, 1, 2, 2, 2});
  std::vector<Tensor> r = runOp("MaxPool", {x}, attrs({{"kernel_shape", Ints{1, 2, 2}}}), 2);
  REQUIRE_CLOSE(r[0], Tensor::fromVector<float>({1, 1, 2, 1, 1}, {4, 8}), 0, 0);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({1, 1, 2, 1, 1}, {3, 7}), 0, 0);
  r = runOp("MaxPool", {x}, attrs({{"kernel_shape", Ints{1, 2, 2}}, {"storage_order", 1}}), 2);
  REQUIRE_CLOSE(r[1], Tensor::fromVector<int64_t>({1, 1, 2, 1, 1}, {6, 7}), 0, 0);

  Tensor y = runOp1("MaxPool", {x}, attrs({{"kernel_shape", Ints{2, 2, 1}}}));
  for (DType t : {DType::F16, DType::BF16, DType::F64, DType::U8, DType::I8})
    REQUIRE_CLOSE(runOp1("MaxPool", {castTo(x, t)}, attrs({{"kernel_shape", Ints{2, 2, 1}}})), castTo(y, t), 0, 0);
}

TEST_CASE("AveragePool pads and count_include_pad", "[AveragePool]") {
  Tensor x = iota({1, 1, 3, 3});
  AttrMap a = attrs({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}});
  REQUIRE_CLOSE(
      runOp1("AveragePool", {x}, a),
      Tensor::fromVector<float>({1, 1, 4, 4}, {1, 1.5, 2.5, 3, 2.5, 3, 4, 4.5, 5.5, 6, 7, 7.5, 7, 7.5, 8.5, 9}), 0, 0);
  a.set("count_include_pad", 1);
  REQUIRE_CLOSE(runOp1("AveragePool", {x}, a),
                Tensor::fromVector<float>(
                    {1, 1, 4, 4}, {.25, .75, 1.25, .75, 1.25, 3, 4, 2.25, 2.75, 6, 7, 3.75, 1.75, 3.75, 4.25, 2.25}),
                0, 0);
}

TEST_CASE("AveragePool ceil_mode", "[AveragePool]") {
  // Windows start at -1, 1, 3, 5 over [1..6] padded by one on each side; the
  // last hangs one past the padding, and that tap is never counted.
  Tensor x = iota({1, 1, 6});
  AttrMap a = attrs({{"kernel_shape", Ints{3}}, {"strides", Ints{2}}, {"pads", Ints{1, 1}}, {"ceil_mode", 1}});
  REQUIRE_CLOSE(runOp1("AveragePool", {x}, a), Tensor::fromVector<float>({1, 1, 4}, {1.5, 3, 5, 6}), 0, 0);
  a.set("count_include_pad", 1);
  REQUIRE_CLOSE(runOp1("AveragePool", {x}, a), Tensor::fromVector<float>({1, 1, 4}, {1, 3, 5, 3}), 0, 0);
  a.set("ceil_mode", 0);
  REQUIRE_CLOSE(runOp1("AveragePool", {x}, a), Tensor::fromVector<float>({1, 1, 3}, {1, 3, 5}), 0, 0);
}

TEST_CASE("AveragePool dilations, strides and dtypes", "[AveragePool]") {
  Tensor x = iota({1, 2, 4, 5});
  AttrMap a = attrs({{"kernel_shape", Ints{2, 2}}, {"dilations", Ints{2, 1}}, {"strides", Ints{1, 3}}});
  // Plane 0, output (0, 0): taps (0,0) (0,1) (2,0) (2,1) = 1, 2, 11, 12.
  Tensor y = runOp1("AveragePool", {x}, a);
  REQUIRE(y.shape() == Shape{1, 2, 2, 2});
  REQUIRE_CLOSE(y, Tensor::fromVector<float>({1, 2, 2, 2}, {6.5, 9.5, 11.5, 14.5, 26.5, 29.5, 31.5, 34.5}), 0, 0);
  for (DType t : {DType::F16, DType::BF16, DType::F64})
    REQUIRE_CLOSE(runOp1("AveragePool", {castTo(x, t)}, a), castTo(y, t), 0, 0);
}

TEST_CASE("Global pools", "[GlobalAveragePool][GlobalMaxPool]") {
  Tensor x = Tensor::fromVector<float>({1, 2, 2, 2}, {1, 2, 3, 4, -1, -8, -3, -2});
  REQUIRE_CLOSE(runOp1("GlobalAveragePool", {x}), Tensor::fromVector<float>({1, 2, 1, 1}, {2.5, -3.5}), 0, 0);
  REQUIRE_CLOSE(runOp1("GlobalMaxPool", {x}), Tensor::fromVector<float>({1, 2, 1, 1}, {4, -1}), 0, 0);
  Tensor x3 = iota({2, 1, 2, 1, 3});
  REQUIRE_CLOSE(runOp1("GlobalAveragePool", {x3}), Tensor::fromVector<float>({2, 1, 1, 1, 1}, {3.5, 9.5}), 0, 0);
  for (DType t : {DType::F16, DType::BF16, DType::F64})
    REQUIRE_CLOSE(runOp1("GlobalMaxPool", {castTo(x3, t)}),
                  castTo(Tensor::fromVector<float>({2, 1, 1, 1, 1}, {6, 12}), t), 0, 0);
}

TEST_CASE("Pools reject bad attributes and shapes", "[MaxPool][AveragePool]") {
  Tensor x = iota({1, 1, 3, 3});
  CHECK(errorKindOf([&] { runOp1("MaxPool", {x}); }) == ErrorKind::InvalidModel);
  CHECK(errorKindOf([&] { runOp1("MaxPool", {x}, attrs({{"kernel_shape", Ints{2}}})); }) == ErrorKind::InvalidModel);
  CHECK(errorKindOf([&] {
          runOp1("AveragePool", {x}, attrs({{"kernel_shape", Ints{4, 4}}}));
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("AveragePool", {x}, attrs({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{0, 1}}}));
        }) == ErrorKind::InvalidModel);
  CHECK(errorKindOf([&] {
          runOp1("MaxPool", {iota({3, 3})}, attrs({{"kernel_shape", Ints{2}}}));
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("AveragePool", {castTo(x, DType::I32)}, attrs({{"kernel_shape", Ints{2, 2}}}));
        }) == ErrorKind::Unsupported);
}
