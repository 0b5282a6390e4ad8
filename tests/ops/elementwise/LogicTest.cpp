#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

namespace {
Tensor boolean(Shape shape, const std::vector<double>& values) { return tensor(DType::Bool, std::move(shape), values); }
} // namespace

TEST_CASE("And, Or, Xor broadcast over bool", "[elementwise][logic]") {
  Tensor a = boolean({2, 2}, {0, 0, 1, 1}), b = boolean({2}, {0, 1});
  requireClose(runOp1("And", {a, b}), boolean({2, 2}, {0, 0, 0, 1}));
  requireClose(runOp1("Or", {a, b}), boolean({2, 2}, {0, 1, 1, 1}));
  requireClose(runOp1("Xor", {a, b}), boolean({2, 2}, {0, 1, 1, 0}));
  CHECK(errorKind([] { runOp1("And", {f32({1}, {1}), f32({1}, {1})}); }) == ErrorKind::Unsupported);
}

TEST_CASE("comparisons yield bool and treat NaN as unordered", "[elementwise][logic]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, kNaN, 6}), y = f32({3}, {2, 2, 2});
  requireClose(runOp1("Equal", {x, y}), boolean({2, 3}, {0, 1, 0, 0, 0, 0}));
  requireClose(runOp1("Less", {x, y}), boolean({2, 3}, {1, 0, 0, 0, 0, 0}));
  requireClose(runOp1("Greater", {x, y}), boolean({2, 3}, {0, 0, 1, 1, 0, 1}));
  requireClose(runOp1("LessOrEqual", {x, y}), boolean({2, 3}, {1, 1, 0, 0, 0, 0}));
  requireClose(runOp1("GreaterOrEqual", {x, y}), boolean({2, 3}, {0, 1, 1, 1, 0, 1}));
  Tensor nan = f32({1}, {kNaN});
  requireClose(runOp1("Equal", {nan, nan}), boolean({1}, {0}));
}

TEST_CASE("comparisons on integers, unsigned bytes and bool", "[elementwise][logic]") {
  requireClose(runOp1("Less", {tensor(DType::I8, {2}, {-1, 5}), tensor(DType::I8, {}, {0})}), boolean({2}, {1, 0}));
  requireClose(runOp1("Greater", {tensor(DType::U8, {2}, {200, 5}), tensor(DType::U8, {}, {100})}),
               boolean({2}, {1, 0}));
  requireClose(runOp1("Equal", {i64({3}, {1, 2, 3}), i64({1}, {2})}), boolean({3}, {0, 1, 0}));
  requireClose(runOp1("Equal", {boolean({2}, {0, 1}), boolean({2}, {1, 1})}), boolean({2}, {0, 1}));
  CHECK(errorKind([] { runOp1("Less", {boolean({1}, {0}), boolean({1}, {1})}); }) == ErrorKind::Unsupported);
}
