#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

// alpha * A' * B' + beta * C with the loops written out; A' and B' are read
// through transposed indexing, C (if any) broadcast to [m, n].
Tensor naiveGemm(const Tensor& a, const Tensor& b, const Tensor* c, bool transA, bool transB, double alpha,
                 double beta) {
  const int64_t m = transA ? a.shape()[1] : a.shape()[0], k = transA ? a.shape()[0] : a.shape()[1];
  const int64_t n = transB ? b.shape()[0] : b.shape()[1];
  Tensor y(DType::F32, {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += a.elementAsDouble(transA ? p * m + i : i * k + p) * b.elementAsDouble(transB ? j * k + p : p * n + j);
      double bias = 0;
      if (c) {
        const Shape& cs = c->shape();
        const int64_t rows = cs.size() == 2 ? cs[0] : 1, cols = cs.empty() ? 1 : cs.back();
        bias = c->elementAsDouble((rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j));
      }
      y.data<float>()[i * n + j] = static_cast<float>(alpha * sum + beta * bias);
    }
  return y;
}

} // namespace

TEST_CASE("Gemm hand-computed", "[Gemm]") {
  Tensor a = Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4});
  Tensor b = Tensor::fromVector<float>({2, 2}, {5, 6, 7, 8});
  Tensor c = Tensor::fromVector<float>({2}, {1, -1});
  // 2 * [[19, 22], [43, 50]] + 3 * [1, -1]
  REQUIRE_CLOSE(runOp1("Gemm", {a, b, c}, attrs({{"alpha", 2.0f}, {"beta", 3.0f}})),
                Tensor::fromVector<float>({2, 2}, {41, 41, 89, 97}), 0, 0);
  // A^T = [[1, 3], [2, 4]] times B^T = [[5, 7], [6, 8]].
  REQUIRE_CLOSE(runOp1("Gemm", {a, b}, attrs({{"transA", 1}, {"transB", 1}})),
                Tensor::fromVector<float>({2, 2}, {23, 31, 34, 46}), 0, 0);
}

TEST_CASE("Gemm flags and bias shapes", "[Gemm]") {
  const int64_t m = 9, k = 20, n = 13;
  for (int transA = 0; transA <= 1; ++transA)
    for (int transB = 0; transB <= 1; ++transB) {
      Tensor a = pattern(transA ? Shape{k, m} : Shape{m, k}, 1);
      Tensor b = pattern(transB ? Shape{n, k} : Shape{k, n}, 2);
      for (const Shape& cShape : {Shape{}, Shape{1}, Shape{n}, Shape{m, 1}, Shape{1, n}, Shape{m, n}}) {
        DYNAMIC_SECTION("transA " << transA << " transB " << transB << " C " << shapeToString(cShape)) {
          Tensor c = pattern(cShape, 3);
          AttrMap at = attrs({{"transA", transA}, {"transB", transB}, {"alpha", 0.5f}, {"beta", -2.0f}});
          REQUIRE_CLOSE(runOp1("Gemm", {a, b, c}, at), naiveGemm(a, b, &c, transA, transB, 0.5, -2.0), 0, 0);
          REQUIRE_CLOSE(runOp1("Gemm", {a, b}, at), naiveGemm(a, b, nullptr, transA, transB, 0.5, 0), 0, 0);
        }
      }
    }
}

TEST_CASE("Gemm single row and column", "[Gemm]") {
  // The matrix-vector paths, with every transposition of the streamed matrix.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 40}, {40, 1}})
    for (int transA = 0; transA <= 1; ++transA)
      for (int transB = 0; transB <= 1; ++transB) {
        Tensor a = pattern(transA ? Shape{30, m} : Shape{m, 30}, 4);
        Tensor b = pattern(transB ? Shape{n, 30} : Shape{30, n}, 5);
        Tensor c = pattern({m, n}, 6);
        AttrMap at = attrs({{"transA", transA}, {"transB", transB}, {"alpha", 2.0f}});
        REQUIRE_CLOSE(runOp1("Gemm", {a, b, c}, at), naiveGemm(a, b, &c, transA, transB, 2.0, 1.0), 0, 0);
      }
}

TEST_CASE("Gemm dtypes", "[Gemm]") {
  Tensor a = pattern({5, 6}, 1), b = pattern({6, 4}, 2), c = pattern({4}, 3);
  Tensor expected = runOp1("Gemm", {a, b, c}, attrs({{"transA", 0}}));
  for (DType t : {DType::F16, DType::BF16, DType::F64})
    REQUIRE_CLOSE(runOp1("Gemm", {castTo(a, t), castTo(b, t), castTo(c, t)}), castTo(expected, t), 0, 0);
  Tensor ai = Tensor::fromVector<int64_t>({1, 2}, {3, 4}), bi = Tensor::fromVector<int64_t>({2, 1}, {5, 6});
  REQUIRE_CLOSE(runOp1("Gemm", {ai, bi, Tensor::fromVector<int64_t>({1}, {1})}, attrs({{"alpha", 2.0f}})),
                Tensor::fromVector<int64_t>({1, 1}, {79}), 0, 0);
}

TEST_CASE("Gemm rejects bad operands", "[Gemm]") {
  CHECK(errorKindOf([] { runOp1("Gemm", {pattern({2, 3}, 1), pattern({2, 3}, 2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] {
          runOp1("Gemm", {pattern({2, 3}, 1), pattern({3, 4}, 2), pattern({3, 4}, 3)});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([] { runOp1("Gemm", {pattern({2, 3, 1}, 1), pattern({3, 4}, 2)}); }) == ErrorKind::ShapeInference);
  Tensor ai = Tensor::fromVector<int32_t>({1, 1}, {3});
  CHECK(errorKindOf([&] { runOp1("Gemm", {ai, ai}, attrs({{"alpha", 0.5f}})); }) == ErrorKind::Unsupported);
}
