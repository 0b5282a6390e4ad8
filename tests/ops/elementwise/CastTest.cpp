#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

namespace {
Tensor cast(const Tensor& x, DType to) { return runOp1("Cast", {x}, attrs({{"to", dtypeToOnnx(to)}})); }
} // namespace

TEST_CASE("Cast float to integer truncates toward zero and saturates", "[elementwise][cast]") {
  requireClose(cast(f32({4}, {2.7, -2.7, 0.5, -0.5}), DType::I32), tensor(DType::I32, {4}, {2, -2, 0, 0}));
  // Out of range is undefined in ONNX; tcx saturates and maps NaN to 0.
  requireClose(cast(f32({3}, {-1, 300, kNaN}), DType::U8), tensor(DType::U8, {3}, {0, 255, 0}));
  requireClose(
      cast(f32({2}, {1e30, -1e30}), DType::I64),
      Tensor::fromVector<int64_t>({2}, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}));
}

TEST_CASE("Cast to bool is != 0 and from bool is 0 or 1", "[elementwise][cast]") {
  requireClose(cast(f32({4}, {0, -0.0, 0.1, kNaN}), DType::Bool), tensor(DType::Bool, {4}, {0, 0, 1, 1}));
  requireClose(cast(i64({2}, {0, -7}), DType::Bool), tensor(DType::Bool, {2}, {0, 1}));
  requireClose(cast(tensor(DType::Bool, {2}, {1, 0}), DType::F32), f32({2}, {1, 0}));
  requireClose(cast(tensor(DType::Bool, {2}, {1, 0}), DType::BF16), tensor(DType::BF16, {2}, {1, 0}));
}

TEST_CASE("Cast to f16 and bf16 rounds to nearest even", "[elementwise][cast]") {
  // 1 + 2^-8 is a bf16 tie (to 1); 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
  requireClose(cast(f32({2}, {1.00390625, 1.01171875}), DType::BF16), tensor(DType::BF16, {2}, {1, 1.015625}), 0, 0);
  // 1 + 2^-11 is an f16 tie (to 1); 65520 is the tie between 65504 and infinity.
  requireClose(cast(f32({3}, {1.00048828125, 65520, -65519}), DType::F16), tensor(DType::F16, {3}, {1, kInf, -65504}),
               0, 0);
  requireClose(cast(tensor(DType::F64, {1}, {0.1}), DType::F16), tensor(DType::F16, {1}, {0.0999755859375}), 0, 0);
  requireClose(cast(tensor(DType::BF16, {2}, {1.5, kNaN}), DType::F32), f32({2}, {1.5, kNaN}), 0, 0);
}

TEST_CASE("Cast between integer types wraps", "[elementwise][cast]") {
  requireClose(cast(i64({3}, {300, -129, 127}), DType::I8), tensor(DType::I8, {3}, {44, 127, 127}));
  requireClose(cast(tensor(DType::I8, {2}, {-1, 5}), DType::U8), tensor(DType::U8, {2}, {255, 5}));
  requireClose(cast(tensor(DType::U8, {1}, {255}), DType::I64), i64({1}, {255}));
  requireClose(cast(i64({2}, {3, -3}), DType::F32), f32({2}, {3, -3}));
}

TEST_CASE("Cast accepts saturate, keeps same-dtype values and rejects unsupported targets", "[elementwise][cast]") {
  Tensor x = f32({2}, {1.25, -2});
  requireClose(runOp1("Cast", {x}, attrs({{"to", dtypeToOnnx(DType::F32)}, {"saturate", 0}})), x, 0, 0);
  CHECK(errorKind([&] { runOp1("Cast", {x}, attrs({{"to", 8}})); }) == ErrorKind::Unsupported);  // STRING
  CHECK(errorKind([&] { runOp1("Cast", {x}, attrs({{"to", 17}})); }) == ErrorKind::Unsupported); // FLOAT8E4M3FN
  CHECK(errorKind([&] { runOp1("Cast", {x}, attrs({{"to", 4}})); }) == ErrorKind::Unsupported);  // UINT16
  CHECK(errorKind([&] { runOp1("Cast", {x}); }) == ErrorKind::InvalidModel);
}

TEST_CASE("CastLike takes the target dtype from its second input", "[elementwise][cast]") {
  requireClose(runOp1("CastLike", {f32({2}, {2.5, -2.5}), i64({}, {0})}), i64({2}, {2, -2}));
  requireClose(runOp1("CastLike", {i64({1}, {3}), tensor(DType::F16, {1}, {0})}, attrs({{"saturate", 1}})),
               tensor(DType::F16, {1}, {3}));
}
