// The ops whose CUDA form must hold for every dtype the CPU accepts: Cast
// between every pair of dtypes (rounding, saturation, NaN, wrapping), Where
// over every dtype, the comparisons over every numeric dtype and Equal over
// bool, and the logic ops.

#include "CaseSupport.h"

#include <limits>

namespace tcx::test {

namespace {

// Factors that take a random input in [-1, 1) (floats) or [0, 4) (integers)
// past the ranges Cast saturates or wraps at: beyond i8 and u8, beyond f16
// (to infinity), beyond i32 and i64, infinities and NaN; for integers,
// products that stay inside the type.
std::vector<double> castScales(DType dtype) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  switch (dtype) {
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F64: return {1, 300, -300, 70000, -70000, 3e9, -3e9, 1e19, -1e19, inf, -inf, nan, 0.5};
  case DType::I64: return {1, -1, 100, -100, 1000, -1000, 70000, -70000, 5e9, -5e9, 3e18, -3e18, 37};
  case DType::I32: return {1, -1, 100, -100, 1000, -1000, 70000, -70000, 5e8, -5e8, 7e8, -7e8, 37};
  case DType::I8: return {1, -1, 10, -10, 20, -20, 30, -30, 40, -40, 42, -42, 37};
  case DType::U8: return {1, 2, 10, 20, 30, 40, 50, 60, 70, 80, 85, 33, 37};
  case DType::Bool: return {};
  }
  return {};
}

// Cast from `from` to every dtype, of values spread as castScales says.
OpCase castCase(DType from) {
  return {caseName("Cast from", from), [=] {
            GraphBuilder b("cast");
            const Shape shape{3, 13};
            auto spread = [&](Value* x) {
              return from == DType::Bool
                         ? x
                         : b.op("Mul", {x, typedConstant(b, x->name() + "_scale", from, {13}, castScales(from))});
            };
            Value* x = spread(b.input("x", from, shape));
            for (DType to : kAllDTypes) b.output(b.op("Cast", {x}, attrs({{"to", int64_t{dtypeToOnnx(to)}}})));
            Value* v = spread(feed(b, "v", from, shape, Feed::Transposed));
            b.output(b.op("Cast", {v}, attrs({{"to", int64_t{dtypeToOnnx(DType::I32)}}})));
            b.output(b.op("CastLike", {v, typedConstant(b, "like", DType::F16, {}, {0})}));
            return b.finish();
          }};
}

// Where over every dtype, the condition and both branches broadcast.
OpCase whereCase() {
  return {
      "Where every dtype", [] {
        GraphBuilder b("where");
        Value* condition = b.input("condition", DType::Bool, {7, 13});
        for (DType dtype : kAllDTypes) {
          const std::string name(dtypeName(dtype));
          b.output(b.op("Where", {condition, b.input(name + "_a", dtype, {13}), b.input(name + "_b", dtype, {7, 1})}));
        }
        Value* v = feed(b, "v", DType::F32, {7, 13}, Feed::Sliced);
        b.output(
            b.op("Where", {feed(b, "vc", DType::Bool, {7, 13}, Feed::Transposed), v, b.input("w", DType::F32, {1})}));
        return b.finish();
      }};
}

// Each comparison over every numeric dtype, and Equal over bool.
OpCase comparisonCase() {
  return {"comparisons every dtype", [] {
            GraphBuilder b("compare");
            for (DType dtype : kAllDTypes) {
              const std::string name(dtypeName(dtype));
              Value* x = b.input(name + "_x", dtype, {7, 13});
              Value* y = b.input(name + "_y", dtype, {13});
              b.output(b.op("Equal", {x, y}));
              if (dtype == DType::Bool) continue;
              for (const char* op : {"Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) b.output(b.op(op, {x, y}));
            }
            b.output(b.op("Less",
                          {feed(b, "v", DType::F16, {7, 13}, Feed::Concatenated), b.input("w", DType::F16, {7, 1})}));
            return b.finish();
          }};
}

OpCase logicCase() {
  return {"logic", [] {
            GraphBuilder b("logic");
            Value* x = b.input("x", DType::Bool, {7, 13});
            Value* y = b.input("y", DType::Bool, {1, 13});
            for (const char* op : {"And", "Or", "Xor"}) b.output(b.op(op, {x, y}));
            b.output(b.op("Not", {x}));
            b.output(b.op("Xor", {feed(b, "v", DType::Bool, {7, 13}, Feed::Padded), y}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> typeCases() {
  std::vector<OpCase> cases;
  for (DType from : kAllDTypes) cases.push_back(castCase(from));
  cases.push_back(whereCase());
  cases.push_back(comparisonCase());
  cases.push_back(logicCase());
  return cases;
}

} // namespace tcx::test
