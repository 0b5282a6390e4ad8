// The element-wise ops: activations, Sign, Tan, Mod, PRelu, IsInf, IsNaN,
// Dropout and Trilu, each attribute variant on an input as it is and one on
// a virtual tensor.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

const Shape kRagged{7, 13};

// `op` with each attribute variant over one input, and with the first
// variant over a virtual input fed as `how`.
OpCase unaryCase(const std::string& op, DType dtype, std::vector<AttrMap> variants, Feed how) {
  return {caseName(op, dtype), [=] {
            GraphBuilder b(op);
            Value* x = withNegatives(b, b.input("x", dtype, kRagged));
            for (const AttrMap& a : variants) b.output(b.op(op, {x}, a));
            b.output(b.op(op, {withNegatives(b, feed(b, "v", dtype, kRagged, how))}, variants.front()));
            return b.finish();
          }};
}

// IsInf and IsNaN of x divided by constants that hold zeros (infinities of
// both signs, as x has both) and a NaN.
OpCase infNanCase(DType dtype) {
  return {caseName("IsInf IsNaN", dtype), [=] {
            GraphBuilder b("is_inf_nan");
            const double nan = std::numeric_limits<double>::quiet_NaN();
            Value* c = typedConstant(b, "c", dtype, {13}, {0, 1, -2, 0, nan, 0.5, 0, -1, 3, 0, nan, 2, -0.25});
            Value* x = b.op("Div", {b.input("x", dtype, kRagged), c});
            b.output(b.op("IsInf", {x}));
            b.output(b.op("IsInf", {x}, attrs({{"detect_negative", 0}})));
            b.output(b.op("IsInf", {x}, attrs({{"detect_positive", 0}})));
            b.output(b.op("IsNaN", {x}));
            Value* v = b.op("Div", {feed(b, "v", dtype, kRagged, Feed::Sliced), c});
            b.output(b.op("IsInf", {v}));
            b.output(b.op("IsNaN", {v}));
            return b.finish();
          }};
}

// Div by scalar constants, which codegen turns into a double multiply (tcx/divide.h): an attention
// score's 1/sqrt(d) in the type's precision, a negative one, one over a dividend scaled to huge
// values, and zero, which keeps the division (infinities of both signs, and NaN for 0 / 0).
OpCase divByConstantCase(DType dtype) {
  return {caseName("Div by a scalar constant", dtype), [=] {
            GraphBuilder b("div_by_constant");
            Value* x = withNegatives(b, b.input("x", dtype, kRagged));
            const double divisors[] = {11.3125, -0.1, 0.0};
            for (int i = 0; i < 3; ++i)
              b.output(b.op("Div", {x, typedConstant(b, "c" + std::to_string(i), dtype, {}, {divisors[i]})}));
            const double scale = dtype == DType::F32 ? 1e30 : 1e4;
            Value* huge = b.op("Mul", {x, typedConstant(b, "scale", dtype, {}, {scale})});
            b.output(b.op("Div", {huge, typedConstant(b, "third", dtype, {1}, {3.0})}));
            b.output(b.op("Div", {feed(b, "v", dtype, kRagged, Feed::Sliced), typedConstant(b, "d", dtype, {}, {7.0})}));
            return b.finish();
          }};
}

// Mod with both sign rules over dividends of both signs and divisors of both
// signs (-1 among the integer ones, whose remainder overflows for the
// minimum value), and a divisor computed at run time for floats.
OpCase modCase(DType dtype) {
  return {caseName("Mod", dtype), [=] {
            GraphBuilder b("mod");
            const bool isFloat = isFloatingPoint(dtype), isUnsigned = dtype == DType::U8;
            std::vector<double> divisors =
                isFloat      ? std::vector<double>{0.7, -0.7, 1.3, -2.1, 0.5, -0.3, 3, -3, 1.1, -1.9, 0.9, 2.5, -0.45}
                : isUnsigned ? std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
                             : std::vector<double>{3, -3, 2, -2, 5, -5, -1, 1, 7, -7, 4, -4, 6};
            Value* d = typedConstant(b, "d", dtype, {13}, divisors);
            auto dividend = [&](Value* x) {
              Value* scaled = b.op("Mul", {x, typedConstant(b, x->name() + "_scale", dtype, {}, {5})});
              return isFloat || isUnsigned
                         ? scaled
                         : b.op("Sub", {scaled, typedConstant(b, x->name() + "_shift", dtype, {}, {8})});
            };
            Value* x = dividend(b.input("x", dtype, kRagged));
            b.output(b.op("Mod", {x, d}));
            b.output(b.op("Mod", {x, d}, attrs({{"fmod", 1}})));
            if (isFloat) b.output(b.op("Mod", {x, b.input("runtime_divisor", dtype, kRagged)}, attrs({{"fmod", 1}})));
            b.output(b.op("Mod", {dividend(feed(b, "v", dtype, kRagged, Feed::Concatenated)), d}));
            return b.finish();
          }};
}

// PRelu with the slope per channel, per last-dimension element and one for
// all, broadcast to the input.
OpCase preluCase(DType dtype) {
  return {caseName("PRelu", dtype), [=] {
            GraphBuilder b("prelu");
            const Shape shape{2, 5, 3, 7};
            Value* x = withNegatives(b, b.input("x", dtype, shape));
            b.output(b.op("PRelu", {x, withNegatives(b, b.input("channel_slope", dtype, {5, 1, 1}))}));
            b.output(b.op("PRelu", {x, withNegatives(b, b.input("row_slope", dtype, {7}))}));
            b.output(b.op("PRelu", {x, typedConstant(b, "one_slope", dtype, {1}, {-3})}));
            Value* v = withNegatives(b, feed(b, "v", dtype, shape, Feed::Transposed));
            b.output(b.op("PRelu", {v, withNegatives(b, b.input("v_slope", dtype, {5, 1, 1}))}));
            return b.finish();
          }};
}

// Dropout at inference: the data alone, the data and the mask with the
// ratio and training_mode given (false), and on a virtual input.
OpCase dropoutCase(DType dtype) {
  return {caseName("Dropout", dtype), [=] {
            GraphBuilder b("dropout");
            Value* x = b.input("x", dtype, kRagged);
            b.output(b.op("Dropout", {x}));
            Value* ratio = typedConstant(b, "ratio", dtype, {}, {0.3});
            Value* training = typedConstant(b, "training", DType::Bool, {}, {0});
            for (Value* out : b.ops("Dropout", {x, ratio, training}, {}, 2)) b.output(out);
            for (Value* out : b.ops("Dropout", {feed(b, "v", dtype, kRagged, Feed::Padded), ratio}, {}, 2))
              b.output(out);
            return b.finish();
          }};
}

// Trilu: both triangles, k on either side of the diagonal and far past
// both ends (clamped), k computed at run time, a batch of matrices wider
// than tall and one taller than wide, and a virtual input.
OpCase triluCase(DType dtype) {
  return {caseName("Trilu", dtype), [=] {
            GraphBuilder b("trilu");
            Value* x = b.input("x", dtype, {2, 7, 13});
            Value* tall = b.input("tall", dtype, {13, 7});
            b.output(b.op("Trilu", {x}));
            b.output(b.op("Trilu", {x}, attrs({{"upper", 0}})));
            b.output(b.op("Trilu", {x, b.constant("k3", Tensor::scalar<int64_t>(3))}));
            b.output(b.op("Trilu", {x, b.ints("k_minus2", {-2})}, attrs({{"upper", 0}})));
            b.output(b.op("Trilu", {x, b.input("k_runtime", DType::I64, {})}));
            b.output(b.op("Trilu", {x, b.constant("k_big", Tensor::scalar<int64_t>(100))}, attrs({{"upper", 0}})));
            b.output(b.op("Trilu", {tall, b.constant("k_small", Tensor::scalar<int64_t>(-100))}));
            b.output(b.op("Trilu", {tall, b.constant("k_minus4", Tensor::scalar<int64_t>(-4))}, attrs({{"upper", 0}})));
            b.output(b.op("Trilu", {feed(b, "v", dtype, {2, 7, 13}, Feed::Transposed)}, attrs({{"upper", 0}})));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> elementwiseCases() {
  std::vector<OpCase> cases;
  struct Activation {
    const char* op;
    std::vector<AttrMap> variants;
    Feed how;
  };
  const std::vector<Activation> activations = {
      {"Celu", {{}, attrs({{"alpha", 0.7f}})}, Feed::Transposed},
      {"Elu", {{}, attrs({{"alpha", 0.5f}})}, Feed::Sliced},
      {"Selu", {{}, attrs({{"alpha", 1.5f}, {"gamma", 2.5f}})}, Feed::Concatenated},
      {"Mish", {{}}, Feed::Padded},
      {"Softsign", {{}}, Feed::Transposed},
      {"ThresholdedRelu", {attrs({{"alpha", 0.25f}}), {}}, Feed::Sliced},
      {"Tan", {{}}, Feed::Concatenated},
  };
  for (const Activation& a : activations)
    for (DType dtype : {DType::F32, DType::F16}) cases.push_back(unaryCase(a.op, dtype, a.variants, a.how));
  for (const char* op : {"Tan", "Selu", "Mish"}) cases.push_back(unaryCase(op, DType::F64, {{}}, Feed::Direct));
  for (DType dtype : {DType::F32, DType::F16, DType::I32, DType::I8, DType::U8})
    cases.push_back(unaryCase("Sign", dtype, {{}}, Feed::Padded));
  for (DType dtype : {DType::F32, DType::F16}) {
    cases.push_back(infNanCase(dtype));
    cases.push_back(dropoutCase(dtype));
  }
  for (DType dtype : {DType::F32, DType::F16, DType::BF16}) cases.push_back(divByConstantCase(dtype));
  for (DType dtype : {DType::F32, DType::F16, DType::I64, DType::I32, DType::I8, DType::U8})
    cases.push_back(modCase(dtype));
  for (DType dtype : {DType::F32, DType::F16, DType::I32, DType::I8}) cases.push_back(preluCase(dtype));
  for (DType dtype : {DType::F32, DType::F16, DType::I64, DType::Bool}) cases.push_back(triluCase(dtype));
  return cases;
}

} // namespace tcx::test
