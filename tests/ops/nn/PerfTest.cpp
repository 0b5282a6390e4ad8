// Timings of the GEMM-based kernels at the sizes of real models. Hidden
// ([.perf]): run them explicitly with `nn_ops_test [perf]`.

#include "support/RunOp.h"

#include "ops/GraphBuilder.h"

#include <catch2/catch.hpp>

#include <chrono>

using namespace tcx;
using tcx::test::runOp1;

namespace {

template <typename T> Tensor ramp(Shape shape, float scale) {
  Tensor t(dtypeOf<T>(), std::move(shape));
  std::span<T> d = t.data<T>();
  for (size_t i = 0; i < d.size(); ++i) d[i] = T(scale * static_cast<float>(static_cast<int64_t>(i % 17) - 8));
  return t;
}

template <typename F> double seconds(F&& f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("MatMul bf16 16x4096x6144", "[.perf]") {
  Tensor a = ramp<BFloat16>({16, 4096}, 0.01f), b = ramp<BFloat16>({4096, 6144}, 0.01f);
  Tensor y;
  double s = seconds([&] { y = runOp1("MatMul", {a, b}); });
  WARN("MatMul bf16 [16x4096]x[4096x6144]: " << s << " s");
  CHECK(y.shape() == Shape{16, 6144});
}

TEST_CASE("Gemm bf16 16x4096x6144 transB", "[.perf]") {
  Tensor a = ramp<BFloat16>({16, 4096}, 0.01f), b = ramp<BFloat16>({6144, 4096}, 0.01f);
  Tensor y;
  double s = seconds([&] { y = runOp1("Gemm", {a, b}, attrs({{"transB", 1}})); });
  WARN("Gemm bf16 [16x4096]x[6144x4096]^T: " << s << " s");
  CHECK(y.shape() == Shape{16, 6144});
}

TEST_CASE("Gemm bf16 1x4096x6144 transB", "[.perf]") {
  Tensor a = ramp<BFloat16>({1, 4096}, 0.01f), b = ramp<BFloat16>({6144, 4096}, 0.01f);
  Tensor y;
  double s = seconds([&] { y = runOp1("Gemm", {a, b}, attrs({{"transB", 1}})); });
  WARN("Gemm bf16 [1x4096]x[6144x4096]^T: " << s << " s");
  CHECK(y.shape() == Shape{1, 6144});
}

TEST_CASE("MatMul bf16 batched 512x[1x128]x[128x4096]", "[.perf]") {
  Tensor a = ramp<BFloat16>({512, 1, 128}, 0.01f), b = ramp<BFloat16>({512, 128, 4096}, 0.01f);
  Tensor y;
  double s = seconds([&] { y = runOp1("MatMul", {a, b}); });
  WARN("MatMul bf16 512x[1x128]x[128x4096]: " << s << " s");
  CHECK(y.shape() == Shape{512, 1, 4096});
}

TEST_CASE("MatMul f32 square", "[.perf]") {
  for (int64_t n : {64, 512, 1024, 2048}) {
    Tensor a = ramp<float>({n, n}, 0.01f), b = ramp<float>({n, n}, 0.01f);
    Tensor y;
    double s = seconds([&] { y = runOp1("MatMul", {a, b}); });
    WARN("MatMul f32 " << n << "^3: " << s << " s, " << 2.0 * n * n * n / s / 1e9 << " GFLOP/s");
  }
}

template <typename T> void timeConv(const char* name) {
  Tensor x = ramp<T>({16, 64, 160, 160}, 0.01f), w = ramp<T>({64, 64, 3, 3}, 0.01f);
  Tensor y;
  double s = seconds([&] { y = runOp1("Conv", {x, w}, attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}})); });
  WARN("Conv " << name << " 3x3 16x64x160x160 -> 64: " << s << " s, " << 2.0 * 16 * 64 * 160 * 160 * 64 * 9 / s / 1e9
               << " GFLOP/s");
  CHECK(y.shape() == Shape{16, 64, 160, 160});
}

TEST_CASE("Conv 3x3 16x64x160x160", "[.perf]") {
  timeConv<float>("f32");
  timeConv<BFloat16>("bf16");
}
