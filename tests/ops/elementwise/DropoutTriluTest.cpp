#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Dropout is the identity with an all-true mask at inference", "[elementwise][dropout]") {
  Tensor x = f32({2, 2}, {1, -2, 3, kNaN});
  std::vector<Tensor> out = runOp("Dropout", {x}, attrs({{"seed", 3}}), 2);
  requireClose(out[0], x, 0, 0);
  requireClose(out[1], tensor(DType::Bool, {2, 2}, {1, 1, 1, 1}));
  Tensor no = tensor(DType::Bool, {}, {0}), yes = tensor(DType::Bool, {}, {1});
  requireClose(runOp1("Dropout", {x, f32({}, {0.3}), no}), x, 0, 0);
  // Training mode with ratio 0 drops nothing.
  requireClose(runOp("Dropout", {x, f32({}, {0}), yes}, {}, 2)[0], x, 0, 0);
  requireClose(runOp1("Dropout", {tensor(DType::BF16, {1}, {1.5})}), tensor(DType::BF16, {1}, {1.5}));
}

TEST_CASE("Dropout in training mode is unsupported", "[elementwise][dropout]") {
  Tensor x = f32({2}, {1, 2}), yes = tensor(DType::Bool, {}, {1});
  CHECK(errorKind([&] { runOp1("Dropout", {x, f32({}, {0.5}), yes}); }) == ErrorKind::Unsupported);
  CHECK(errorKind([&] { runOp1("Dropout", {x, Tensor(), yes}); }) == ErrorKind::Unsupported); // ratio 0.5
  CHECK(errorKind([&] { runOp1("Dropout", {x, f32({2}, {0, 0})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([&] { runOp1("Dropout", {i64({1}, {1})}); }) == ErrorKind::Unsupported);
}

TEST_CASE("Trilu keeps the upper or lower triangle shifted by k", "[elementwise][trilu]") {
  Tensor x = f32({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  requireClose(runOp1("Trilu", {x}), f32({3, 4}, {1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}));
  requireClose(runOp1("Trilu", {x}, attrs({{"upper", 0}})), f32({3, 4}, {1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}));
  requireClose(runOp1("Trilu", {x, i64({}, {1})}), f32({3, 4}, {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}));
  requireClose(runOp1("Trilu", {x, i64({}, {-1})}, attrs({{"upper", 0}})),
               f32({3, 4}, {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}));
  requireClose(runOp1("Trilu", {x, i64({}, {100})}), f32({3, 4}, std::vector<double>(12, 0)));
  requireClose(runOp1("Trilu", {x, i64({}, {-100})}), x);
  requireClose(runOp1("Trilu", {x, i64({}, {std::numeric_limits<int32_t>::min()})}, attrs({{"upper", 0}})),
               f32({3, 4}, std::vector<double>(12, 0)));
}

TEST_CASE("Trilu works per matrix of a batch and on any dtype", "[elementwise][trilu]") {
  Tensor x = tensor(DType::Bool, {2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  requireClose(runOp1("Trilu", {x}), tensor(DType::Bool, {2, 2, 2}, {1, 1, 0, 1, 1, 1, 0, 1}));
  requireClose(runOp1("Trilu", {i64({2, 0}, {})}), i64({2, 0}, {}));
  CHECK(errorKind([] { runOp1("Trilu", {f32({3}, {1, 2, 3})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] { runOp1("Trilu", {f32({1, 1}, {1}), f32({}, {1})}); }) == ErrorKind::ShapeInference);
}
