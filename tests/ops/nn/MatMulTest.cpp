#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tcx;
using namespace tcx::test;

namespace {

// Stacked product with the loops written out: a is [batch, m, k] and b
// [batch, k, n], where a batch stride of 0 repeats one matrix.
Tensor naiveMatMul(const Tensor& a, const Tensor& b, int64_t batch, int64_t m, int64_t k, int64_t n, int64_t strideA,
                   int64_t strideB, Shape outShape) {
  Tensor y(DType::F32, std::move(outShape));
  std::span<float> yd = y.data<float>();
  for (int64_t s = 0; s < batch; ++s)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += a.elementAsDouble(s * strideA + i * k + p) * b.elementAsDouble(s * strideB + p * n + j);
        yd[(s * m + i) * n + j] = static_cast<float>(sum);
      }
  return y;
}

} // namespace

TEST_CASE("MatMul 2-D", "[MatMul]") {
  Tensor a = Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = Tensor::fromVector<float>({3, 2}, {7, 8, 9, 10, 11, 12});
  REQUIRE_CLOSE(runOp1("MatMul", {a, b}), Tensor::fromVector<float>({2, 2}, {58, 64, 139, 154}), 0, 0);
}

TEST_CASE("MatMul 1-D operands", "[MatMul]") {
  Tensor v = Tensor::fromVector<float>({3}, {1, 2, 3});
  Tensor m = Tensor::fromVector<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor mt = Tensor::fromVector<float>({2, 3}, {1, 3, 5, 2, 4, 6});
  // [3] x [3, 2]: a row vector, the row dimension dropped.
  REQUIRE_CLOSE(runOp1("MatMul", {v, m}), Tensor::fromVector<float>({2}, {22, 28}), 0, 0);
  // [2, 3] x [3]: a column vector, the column dimension dropped.
  REQUIRE_CLOSE(runOp1("MatMul", {mt, v}), Tensor::fromVector<float>({2}, {22, 28}), 0, 0);
  // [3] x [3]: a dot product, a scalar.
  REQUIRE_CLOSE(runOp1("MatMul", {v, v}), Tensor::scalar<float>(14), 0, 0);
  // [3] x [2, 3, 2] and [2, 2, 3] x [3]: the vector meets every matrix.
  Tensor stack = Tensor::fromVector<float>({2, 3, 2}, {1, 2, 3, 4, 5, 6, 0, 1, 0, 1, 0, 1});
  REQUIRE_CLOSE(runOp1("MatMul", {v, stack}), Tensor::fromVector<float>({2, 2}, {22, 28, 0, 6}), 0, 0);
  Tensor stackT = Tensor::fromVector<float>({2, 2, 3}, {1, 3, 5, 2, 4, 6, 0, 0, 0, 1, 1, 1});
  REQUIRE_CLOSE(runOp1("MatMul", {stackT, v}), Tensor::fromVector<float>({2, 2}, {22, 28, 0, 6}), 0, 0);
}

TEST_CASE("MatMul batch broadcasting", "[MatMul]") {
  SECTION("[2,1,2,3] x [3,3,4]") {
    Tensor a = pattern({2, 1, 2, 3}, 1), b = pattern({3, 3, 4}, 2);
    Tensor y = runOp1("MatMul", {a, b});
    REQUIRE(y.shape() == Shape{2, 3, 2, 4});
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        Tensor expected = naiveMatMul(a, b, 1, 2, 3, 4, 0, 0, {2, 4});
        // Slice (i, j) of y is a[i, 0] x b[j].
        Tensor ai = Tensor(DType::F32, {2, 3}), bj = Tensor(DType::F32, {3, 4}), yij = Tensor(DType::F32, {2, 4});
        std::copy_n(a.data<float>().begin() + i * 6, 6, ai.data<float>().begin());
        std::copy_n(b.data<float>().begin() + j * 12, 12, bj.data<float>().begin());
        std::copy_n(y.data<float>().begin() + (i * 3 + j) * 8, 8, yij.data<float>().begin());
        REQUIRE_CLOSE(yij, naiveMatMul(ai, bj, 1, 2, 3, 4, 0, 0, {2, 4}), 0, 0);
      }
  }
  SECTION("a stack times one matrix") {
    Tensor a = pattern({4, 5, 3}, 3), b = pattern({3, 7}, 4);
    REQUIRE_CLOSE(runOp1("MatMul", {a, b}), naiveMatMul(a, b, 4, 5, 3, 7, 15, 0, {4, 5, 7}), 0, 0);
  }
  SECTION("one matrix times a stack") {
    Tensor a = pattern({1, 5, 3}, 5), b = pattern({4, 3, 7}, 6);
    REQUIRE_CLOSE(runOp1("MatMul", {a, b}), naiveMatMul(a, b, 4, 5, 3, 7, 0, 21, {4, 5, 7}), 0, 0);
  }
  SECTION("an empty batch") {
    Tensor y = runOp1("MatMul", {pattern({0, 2, 3}, 1), pattern({3, 4}, 2)});
    REQUIRE(y.shape() == Shape{0, 2, 4});
  }
  SECTION("an empty inner dimension sums to zero") {
    REQUIRE_CLOSE(runOp1("MatMul", {pattern({2, 0}, 1), pattern({0, 3}, 2)}), Tensor(DType::F32, {2, 3}), 0, 0);
  }
}

TEST_CASE("MatMul sizes across the blocking", "[MatMul]") {
  // Sizes past the K and N block sizes and not multiples of the tile, and the
  // single-row and single-column paths; pattern values keep sums exact.
  for (auto [m, k, n] : {std::array<int64_t, 3>{70, 300, 2100}, {1, 300, 2100}, {70, 300, 1}, {13, 1, 17}}) {
    DYNAMIC_SECTION(m << "x" << k << "x" << n) {
      Tensor a = pattern({m, k}, 7), b = pattern({k, n}, 8);
      REQUIRE_CLOSE(runOp1("MatMul", {a, b}), naiveMatMul(a, b, 1, m, k, n, 0, 0, {m, n}), 0, 0);
    }
  }
}

TEST_CASE("MatMul dtypes", "[MatMul]") {
  Tensor a = pattern({3, 40, 50}, 1), b = pattern({3, 50, 30}, 2);
  Tensor expected = runOp1("MatMul", {a, b});
  SECTION("f64 and f16 are exact on these values") {
    for (DType t : {DType::F64, DType::F16})
      REQUIRE_CLOSE(runOp1("MatMul", {castTo(a, t), castTo(b, t)}), castTo(expected, t), 0, 0);
  }
  SECTION("bf16 against f32") {
    // Random-looking values that bf16 cannot hold exactly.
    Tensor x(DType::F32, {17, 300}), w(DType::F32, {300, 33});
    for (int64_t i = 0; i < x.numElements(); ++i) x.data<float>()[i] = std::sin(0.37f * static_cast<float>(i));
    for (int64_t i = 0; i < w.numElements(); ++i) w.data<float>()[i] = std::cos(0.11f * static_cast<float>(i));
    Tensor xb = castTo(x, DType::BF16), wb = castTo(w, DType::BF16);
    Tensor y = runOp1("MatMul", {xb, wb});
    REQUIRE(y.dtype() == DType::BF16);
    // The f32 product of the same (rounded) operands, rounded once to bf16.
    Tensor reference = runOp1("MatMul", {castTo(xb, DType::F32), castTo(wb, DType::F32)});
    REQUIRE_CLOSE(y, castTo(reference, DType::BF16), 0, 0);
    // And within bf16 precision of the product of the unrounded operands.
    REQUIRE_CLOSE(castTo(y, DType::F32), runOp1("MatMul", {x, w}), 2e-2, 0.2);
  }
  SECTION("integers") {
    Tensor ai = Tensor::fromVector<int32_t>({2, 2}, {1, -2, 3, 4});
    Tensor bi = Tensor::fromVector<int32_t>({2, 3}, {5, 6, 7, -8, 9, 10});
    REQUIRE_CLOSE(runOp1("MatMul", {ai, bi}), Tensor::fromVector<int32_t>({2, 3}, {21, -12, -13, -17, 54, 61}), 0, 0);
    Tensor al = Tensor::fromVector<int64_t>({1, 2}, {int64_t(1) << 40, 3});
    Tensor bl = Tensor::fromVector<int64_t>({2, 1}, {2, 5});
    REQUIRE_CLOSE(runOp1("MatMul", {al, bl}), Tensor::fromVector<int64_t>({1, 1}, {(int64_t(1) << 41) + 15}), 0, 0);
  }
}

TEST_CASE("MatMul rejects bad operands", "[MatMul]") {
  CHECK(errorKindOf([] { runOp1("MatMul", {pattern({2, 3}, 1), pattern({4, 2}, 2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("MatMul", {pattern({3}, 1), pattern({4}, 2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] {
          runOp1("MatMul", {pattern({2, 2, 3}, 1), pattern({3, 3, 2}, 2)});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] {
          runOp1("MatMul", {Tensor::scalar<float>(1), pattern({1, 2}, 2)});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] {
          runOp1("MatMul", {pattern({2, 3}, 1), castTo(pattern({3, 2}, 2), DType::F64)});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] {
          runOp1("MatMul", {castTo(pattern({2, 2}, 1), DType::Bool), castTo(pattern({2, 2}, 1), DType::Bool)});
        }) == ErrorKind::Unsupported);
}
