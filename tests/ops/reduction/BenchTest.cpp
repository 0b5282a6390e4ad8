// Timings of the hot reduction kernels on model-sized tensors. Hidden from
// the default run ([.]): `reduction_ops_test [bench]` prints them.

#include "Helpers.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <ctime>

using namespace tcx;
using namespace tcx::test;

namespace {

// The best of three runs, in CPU time: the machine running the tests is
// often shared, which skews wall-clock time.
template <typename F> double millisecondsOf(F&& f) {
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    std::clock_t start = std::clock();
    f();
    double ms = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    best = run == 0 ? ms : std::min(best, ms);
  }
  return best;
}

template <typename T> Tensor ramp(Shape shape) {
  Tensor t(dtypeOf<T>(), std::move(shape));
  std::span<T> data = t.data<T>();
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<T>(static_cast<float>(i % 17) * 0.25f);
  return t;
}

} // namespace

TEMPLATE_TEST_CASE("Softmax of attention scores", "[.][bench]", float, BFloat16) {
  Tensor scores = ramp<TestType>({16, 32, 1, 4096});
  Tensor probs;
  double ms = millisecondsOf([&] { probs = runOp1("Softmax", {scores}); });
  WARN("Softmax " << scores.type().toString() << ": " << ms << " ms");
  Tensor rowSums = runOp1("ReduceSum", {probs, i64s({-1})});
  for (int64_t i = 0; i < rowSums.numElements(); ++i) REQUIRE(std::abs(rowSums.elementAsDouble(i) - 1) < 1e-2);
}

TEMPLATE_TEST_CASE("ReduceMean of a large tensor", "[.][bench]", float, BFloat16) {
  Tensor x = ramp<TestType>({4096, 8192});
  for (int64_t axis : {-1, 0}) {
    Tensor mean;
    double ms = millisecondsOf([&] { mean = runOp1("ReduceMean", {x, i64s({axis})}); });
    WARN("ReduceMean " << x.type().toString() << " axis " << axis << ": " << ms << " ms");
    REQUIRE(std::abs(mean.elementAsDouble(0) - 2.0) < 0.1);
  }
}
