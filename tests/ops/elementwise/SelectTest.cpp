#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Clip bounds by optional min and max and keeps NaN", "[elementwise][select]") {
  Tensor x = f32({5}, {-2, 0.5, 3, kNaN, -kInf});
  requireClose(runOp1("Clip", {x, f32({}, {0}), f32({}, {1})}), f32({5}, {0, 0.5, 1, kNaN, 0}));
  requireClose(runOp1("Clip", {x, Tensor(), f32({}, {1})}), f32({5}, {-2, 0.5, 1, kNaN, -kInf}));
  requireClose(runOp1("Clip", {x, f32({1}, {0})}), f32({5}, {0, 0.5, 3, kNaN, 0}));
  requireClose(runOp1("Clip", {x}), x);
  // min > max: every element becomes max, as with numpy.clip.
  requireClose(runOp1("Clip", {f32({2}, {0, 5}), f32({}, {3}), f32({}, {2})}), f32({2}, {2, 2}));
}

TEST_CASE("Clip on integers and 16-bit floats", "[elementwise][select]") {
  Tensor x = tensor(DType::I8, {3}, {-128, 0, 127});
  requireClose(runOp1("Clip", {x, tensor(DType::I8, {}, {-5})}), tensor(DType::I8, {3}, {-5, 0, 127}));
  requireClose(runOp1("Clip", {x, Tensor(), tensor(DType::I8, {}, {5})}), tensor(DType::I8, {3}, {-128, 0, 5}));
  requireClose(
      runOp1("Clip", {tensor(DType::BF16, {2}, {-3, 3}), tensor(DType::BF16, {}, {-1}), tensor(DType::BF16, {}, {1})}),
      tensor(DType::BF16, {2}, {-1, 1}));
}

TEST_CASE("Clip rejects bounds that are not one element of the input's dtype", "[elementwise][select]") {
  Tensor x = f32({2}, {1, 2});
  CHECK(errorKind([&] { runOp1("Clip", {x, f32({2}, {0, 0})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([&] { runOp1("Clip", {x, i64({}, {0})}); }) == ErrorKind::ShapeInference);
}

TEST_CASE("Where selects with a broadcast condition", "[elementwise][select]") {
  Tensor condition = tensor(DType::Bool, {2, 1}, {1, 0});
  requireClose(runOp1("Where", {condition, f32({3}, {1, 2, 3}), f32({}, {-1})}), f32({2, 3}, {1, 2, 3, -1, -1, -1}));
  requireClose(runOp1("Where", {tensor(DType::Bool, {2}, {0, 1}), tensor(DType::BF16, {2}, {1.5, 2.5}),
                                tensor(DType::BF16, {2}, {-1.5, -2.5})}),
               tensor(DType::BF16, {2}, {-1.5, 2.5}));
  requireClose(runOp1("Where", {tensor(DType::Bool, {2}, {0, 1}), i64({2}, {1, 2}), i64({2}, {3, 4})}),
               i64({2}, {3, 2}));
  CHECK(errorKind([] { runOp1("Where", {f32({1}, {1}), f32({1}, {1}), f32({1}, {2})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] {
          runOp1("Where", {tensor(DType::Bool, {1}, {1}), f32({1}, {1}), i64({1}, {2})});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] {
          runOp1("Where", {tensor(DType::Bool, {2}, {1, 0}), f32({3}, {1, 2, 3}), f32({1}, {2})});
        }) == ErrorKind::ShapeInference);
}
