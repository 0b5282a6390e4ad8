#include "Helpers.h"

#include <cmath>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("unary math functions", "[elementwise][math]") {
  requireClose(runOp1("Sqrt", {f32({3}, {4, 2.25, -1})}), f32({3}, {2, 1.5, kNaN}));
  requireClose(runOp1("Reciprocal", {f32({2}, {2, -0.5})}), f32({2}, {0.5, -2}));
  requireClose(runOp1("Exp", {f32({2}, {0, 1})}), f32({2}, {1, 2.7182818}));
  requireClose(runOp1("Log", {f32({3}, {1, 2.7182818, 0})}), f32({3}, {0, 1, -kInf}));
  requireClose(runOp1("Erf", {f32({3}, {0, 1, -1})}), f32({3}, {0, 0.8427008, -0.8427008}));
  requireClose(runOp1("Tanh", {f32({2}, {0, 1})}), f32({2}, {0, 0.7615942}));
  requireClose(runOp1("Sin", {f32({2}, {0, 0.5})}), f32({2}, {0, 0.4794255}));
  requireClose(runOp1("Cos", {f32({2}, {0, 0.5})}), f32({2}, {1, 0.8775826}));
  requireClose(runOp1("Tan", {f32({2}, {0, 0.5})}), f32({2}, {0, 0.5463025}));
  requireClose(runOp1("Floor", {f32({3}, {-1.5, 1.5, 2})}), f32({3}, {-2, 1, 2}));
  requireClose(runOp1("Ceil", {f32({3}, {-1.5, 1.5, 2})}), f32({3}, {-1, 2, 2}));
  requireClose(runOp1("Exp", {tensor(DType::F64, {1}, {1})}), tensor(DType::F64, {1}, {std::exp(1.0)}), 1e-15);
  requireClose(runOp1("Sqrt", {tensor(DType::BF16, {1}, {2})}), tensor(DType::BF16, {1}, {1.4140625}), 0, 0);
}

TEST_CASE("Round rounds halves to even", "[elementwise][math]") {
  requireClose(runOp1("Round", {f32({8}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, -2.6})}),
               f32({8}, {0, 2, 2, 0, -2, 2, 3, -3}));
  requireClose(runOp1("Round", {tensor(DType::F16, {2}, {3.5, 4.5})}), tensor(DType::F16, {2}, {4, 4}));
}

TEST_CASE("Neg, Abs and Sign on floats and integers", "[elementwise][math]") {
  requireClose(runOp1("Neg", {f32({2}, {1.5, -2})}), f32({2}, {-1.5, 2}));
  requireClose(runOp1("Neg", {tensor(DType::I8, {2}, {-128, 5})}), tensor(DType::I8, {2}, {-128, -5}));
  requireClose(runOp1("Abs", {f32({2}, {-2.5, 2.5})}), f32({2}, {2.5, 2.5}));
  requireClose(runOp1("Abs", {tensor(DType::I32, {2}, {-3, 3})}), tensor(DType::I32, {2}, {3, 3}));
  requireClose(runOp1("Abs", {tensor(DType::U8, {1}, {200})}), tensor(DType::U8, {1}, {200}));
  requireClose(runOp1("Sign", {f32({4}, {-2, 0, 3, kNaN})}), f32({4}, {-1, 0, 1, kNaN}));
  requireClose(runOp1("Sign", {i64({3}, {-5, 0, 7})}), i64({3}, {-1, 0, 1}));
}

TEST_CASE("IsNaN, IsInf and Not yield bool", "[elementwise][math]") {
  Tensor x = f32({4}, {1, kInf, -kInf, kNaN});
  requireClose(runOp1("IsNaN", {x}), tensor(DType::Bool, {4}, {0, 0, 0, 1}));
  requireClose(runOp1("IsInf", {x}), tensor(DType::Bool, {4}, {0, 1, 1, 0}));
  requireClose(runOp1("IsInf", {x}, attrs({{"detect_negative", 0}})), tensor(DType::Bool, {4}, {0, 1, 0, 0}));
  requireClose(runOp1("IsInf", {x}, attrs({{"detect_positive", 0}})), tensor(DType::Bool, {4}, {0, 0, 1, 0}));
  requireClose(runOp1("Not", {tensor(DType::Bool, {2}, {1, 0})}), tensor(DType::Bool, {2}, {0, 1}));
}

TEST_CASE("unary ops reject dtypes outside their constraints", "[elementwise][math]") {
  CHECK(errorKind([] { runOp1("Sqrt", {i64({1}, {4})}); }) == ErrorKind::Unsupported);
  CHECK(errorKind([] { runOp1("Not", {f32({1}, {1})}); }) == ErrorKind::Unsupported);
  CHECK(errorKind([] { runOp1("Neg", {tensor(DType::Bool, {1}, {1})}); }) == ErrorKind::Unsupported);
}
