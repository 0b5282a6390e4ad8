#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Add, Sub, Mul and Div broadcast numpy-style", "[elementwise][arithmetic]") {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  requireClose(runOp1("Add", {a, f32({3}, {10, 20, 30})}), f32({2, 3}, {11, 22, 33, 14, 25, 36}));
  requireClose(runOp1("Sub", {a, f32({2, 1}, {1, 2})}), f32({2, 3}, {0, 1, 2, 2, 3, 4}));
  requireClose(runOp1("Mul", {f32({}, {2}), a}), f32({2, 3}, {2, 4, 6, 8, 10, 12}));
  requireClose(runOp1("Div", {a, f32({1, 3}, {2, 4, 0})}), f32({2, 3}, {0.5, 0.5, kInf, 2, 1.25, kInf}));
  // An outer sum: both operands broadcast.
  requireClose(runOp1("Add", {f32({2, 1}, {1, 2}), f32({1, 3}, {10, 20, 30})}), f32({2, 3}, {11, 21, 31, 12, 22, 32}));
}

TEST_CASE("integer arithmetic wraps and Div truncates toward zero", "[elementwise][arithmetic]") {
  Tensor x = tensor(DType::I32, {4}, {7, -7, 7, -7});
  Tensor y = tensor(DType::I32, {4}, {2, 2, -2, -2});
  requireClose(runOp1("Div", {x, y}), tensor(DType::I32, {4}, {3, -3, -3, 3}));
  requireClose(runOp1("Add", {tensor(DType::I8, {2}, {100, -100}), tensor(DType::I8, {2}, {100, -100})}),
               tensor(DType::I8, {2}, {-56, 56}));
  requireClose(runOp1("Sub", {tensor(DType::U8, {2}, {1, 200}), tensor(DType::U8, {2}, {2, 100})}),
               tensor(DType::U8, {2}, {255, 100}));
  requireClose(runOp1("Mul", {tensor(DType::I8, {1}, {16}), tensor(DType::I8, {1}, {16})}),
               tensor(DType::I8, {1}, {0}));
  requireClose(runOp1("Div", {tensor(DType::I8, {1}, {-128}), tensor(DType::I8, {1}, {-1})}),
               tensor(DType::I8, {1}, {-128}));
  Tensor big = tensor(DType::I64, {1}, {0});
  big.data<int64_t>()[0] = std::numeric_limits<int64_t>::max();
  REQUIRE(runOp1("Add", {big, i64({1}, {1})}).data<int64_t>()[0] == std::numeric_limits<int64_t>::min());
  CHECK(errorKind([&] { runOp1("Div", {x, tensor(DType::I32, {1}, {0})}); }) == ErrorKind::InvalidArgument);
}

TEST_CASE("Mod follows the divisor's sign by default and the dividend's with fmod", "[elementwise][arithmetic]") {
  Tensor x = i64({6}, {-4, 7, 5, 4, -7, 8});
  Tensor y = i64({6}, {2, -3, 8, -2, 3, 5});
  requireClose(runOp1("Mod", {x, y}), i64({6}, {0, -2, 5, 0, 2, 3}));
  requireClose(runOp1("Mod", {x, y}, attrs({{"fmod", 1}})), i64({6}, {0, 1, 5, 0, -1, 3}));
  Tensor fx = f32({2}, {-4.5, 7.5}), fy = f32({2}, {2, -2});
  requireClose(runOp1("Mod", {fx, fy}, attrs({{"fmod", 1}})), f32({2}, {-0.5, 1.5}));
  requireClose(runOp1("Mod", {fx, fy}), f32({2}, {1.5, -0.5}));
  requireClose(runOp1("Mod", {tensor(DType::U8, {2}, {200, 7}), tensor(DType::U8, {1}, {7})}),
               tensor(DType::U8, {2}, {4, 0}));
  CHECK(errorKind([&] { runOp1("Mod", {x, i64({}, {0})}); }) == ErrorKind::InvalidArgument);
}

TEST_CASE("Pow mixes base and exponent dtypes and keeps the base's", "[elementwise][arithmetic]") {
  requireClose(runOp1("Pow", {f32({2}, {2, 3}), f32({2}, {3, 0.5})}), f32({2}, {8, 1.7320508}));
  requireClose(runOp1("Pow", {f32({2}, {2, 4}), i64({2}, {2, -1})}), f32({2}, {4, 0.25}));
  requireClose(runOp1("Pow", {tensor(DType::I32, {2}, {2, 3}), f32({2}, {2, 0.5})}), tensor(DType::I32, {2}, {4, 1}));
  requireClose(runOp1("Pow", {i64({5}, {2, 3, -2, 2, -1}), i64({5}, {10, 0, 3, -1, -3})}),
               i64({5}, {1024, 1, -8, 0, -1}));
  requireClose(runOp1("Pow", {tensor(DType::BF16, {1}, {3}), i64({}, {2})}), tensor(DType::BF16, {1}, {9}));
}

TEST_CASE("Min and Max fold any number of broadcast inputs and propagate NaN", "[elementwise][arithmetic]") {
  requireClose(runOp1("Max", {f32({2, 2}, {1, 5, 3, -1}), f32({2}, {2, 2}), f32({}, {0})}), f32({2, 2}, {2, 5, 3, 2}));
  requireClose(runOp1("Min", {f32({2}, {1, 5}), f32({3, 1}, {0, 2, 9})}), f32({3, 2}, {0, 0, 1, 2, 1, 5}));
  Tensor a = f32({3}, {1, kNaN, 3}), b = f32({3}, {kNaN, 2, 1});
  requireClose(runOp1("Min", {a, b}), f32({3}, {kNaN, kNaN, 1}));
  requireClose(runOp1("Max", {a, b}), f32({3}, {kNaN, kNaN, 3}));
  requireClose(runOp1("Min", {a}), a);
  requireClose(runOp1("Max", {tensor(DType::I8, {2}, {-128, 3}), tensor(DType::I8, {2}, {-5, 127})}),
               tensor(DType::I8, {2}, {-5, 127}));
  requireClose(runOp1("Min", {tensor(DType::U8, {2}, {0, 255}), tensor(DType::U8, {1}, {7})}),
               tensor(DType::U8, {2}, {0, 7}));
}

TEST_CASE("Sum and Mean fold float inputs", "[elementwise][arithmetic]") {
  Tensor a = f32({2}, {1, 2}), b = f32({2}, {3, 4}), c = f32({1}, {5});
  requireClose(runOp1("Sum", {a, b, c}), f32({2}, {9, 11}));
  requireClose(runOp1("Mean", {a, b, c}), f32({2}, {3, 11.0 / 3}));
  requireClose(runOp1("Mean", {a}), a);
  CHECK(errorKind([&] { runOp1("Sum", {i64({1}, {1}), i64({1}, {2})}); }) == ErrorKind::Unsupported);
}

TEST_CASE("f16 and bf16 results round to nearest even", "[elementwise][arithmetic]") {
  // 1 + 2^-8 and 257 lie halfway between bf16 neighbours; both go to the even one.
  requireClose(runOp1("Add", {tensor(DType::BF16, {2}, {1, 256}), tensor(DType::BF16, {2}, {0.00390625, 1})}),
               tensor(DType::BF16, {2}, {1, 256}), 0, 0);
  // 2049 and 2051 are halfway between f16 neighbours: 2048 and 2052 are even.
  requireClose(runOp1("Add", {tensor(DType::F16, {2}, {2048, 2048}), tensor(DType::F16, {2}, {1, 3})}),
               tensor(DType::F16, {2}, {2048, 2052}), 0, 0);
  requireClose(runOp1("Mul", {tensor(DType::F64, {1}, {0.1}), tensor(DType::F64, {1}, {3})}),
               tensor(DType::F64, {1}, {0.30000000000000004}), 0, 0);
}

TEST_CASE("binary ops reject incompatible shapes and mixed or unsupported dtypes", "[elementwise][arithmetic]") {
  CHECK(errorKind([] {
          runOp1("Add", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})});
        }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] { runOp1("Add", {f32({1}, {1}), i64({1}, {1})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] { runOp1("Max", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] {
          runOp1("Add", {tensor(DType::Bool, {1}, {1}), tensor(DType::Bool, {1}, {1})});
        }) == ErrorKind::Unsupported);
}
