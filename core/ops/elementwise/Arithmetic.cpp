// Add, Sub, Mul, Div, Mod, Pow and the variadic Min, Max, Sum, Mean.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"
#include "ops/elementwise/ScalarMath.h"

namespace tcx::elementwise {

namespace {

template <typename T> T divide(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    TCX_CHECK(b != 0, ErrorKind::InvalidArgument, "integer division by zero");
    // The one quotient that overflows: the minimum value divided by -1.
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return negate(a);
  }
  return a / b;
}

// C's remainder (the sign of the dividend) for fmod = 1; Python's (the sign
// of the divisor) otherwise, the ONNX default.
template <typename T> T modulo(T a, T b, bool fmod) {
  T r;
  if constexpr (std::is_integral_v<T>) {
    TCX_CHECK(b != 0, ErrorKind::InvalidArgument, "integer modulo by zero");
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0); // a % -1 overflows for the minimum value
    r = a % b;
  } else {
    r = std::fmod(a, b);
  }
  if (!fmod && r != T(0) && isNegative(r) != isNegative(b)) r += b;
  return r;
}

// Integer powers by squaring, wrapping like repeated multiplication (the
// product modulo 2^64 truncates to any narrower type's product).
int64_t integerPower(int64_t base, int64_t exponent) {
  if (exponent < 0) // 1 / base^|e| truncates to 0 unless |base| is 1
    return base == 1 ? 1 : base == -1 ? (exponent % 2 == 0 ? 1 : -1) : 0;
  uint64_t result = 1, factor = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
    if (e & 1) result *= factor;
    factor *= factor;
  }
  return static_cast<int64_t>(result);
}

template <typename B, typename E> auto power(B base, E exponent) {
  if constexpr (std::is_integral_v<B> && std::is_integral_v<E>)
    return integerPower(static_cast<int64_t>(base), static_cast<int64_t>(exponent));
  else
    return std::pow(base, exponent);
}

// Pow's exponent may have another dtype than its base; the result has the
// base's.
OpDef powOp() {
  OpDef def{.name = "Pow", .opClass = OpClass::Elementwise, .minInputs = 2, .maxInputs = 2};
  def.flops = flopsPerOutputElement();
  def.infer = [](InferContext& ctx) {
    const TensorType& base = ctx.inputType(0);
    checkAccepts(Accepts::Numeric, base.dtype);
    checkAccepts(Accepts::Numeric, ctx.inputType(1).dtype);
    ctx.setOutputType(0, {base.dtype, broadcastShapes(base.shape, ctx.inputType(1).shape)});
  };
  def.kernel = [](KernelContext& ctx) {
    const Tensor &base = ctx.input(0), &exponent = ctx.input(1);
    dispatchAccepted<Accepts::Numeric>(base.dtype(), [&]<typename B>() {
      dispatchAccepted<Accepts::Numeric>(exponent.dtype(), [&]<typename E>() {
        mapElements<B, B, E>(ctx.output(0), {&base, &exponent}, [](auto b, auto e) { return power(b, e); });
      });
    });
  };
  return def;
}

// NaN wins, as in numpy's minimum and maximum, which the ONNX reference uses.
constexpr auto kMin = [](auto a, auto b) { return a < b || isNan(a) ? a : b; };
constexpr auto kMax = [](auto a, auto b) { return a > b || isNan(a) ? a : b; };
constexpr auto kAdd = [](auto a, auto b) { return wrapping(a, b, std::plus<>()); };

OpDef meanOp() {
  OpDef def = variadicOp<Accepts::Float>("Mean", kAdd);
  def.kernel = [sum = std::move(def.kernel)](KernelContext& ctx) {
    sum(ctx);
    Tensor& out = ctx.output(0);
    const double count = static_cast<double>(ctx.numInputs());
    dispatchFloat(out.dtype(), [&]<typename T>() {
      mapElements<T, T>(out, {&out}, [count](auto s) { return s / static_cast<decltype(s)>(count); });
    });
  };
  return def;
}

} // namespace

void registerArithmeticOps(OpRegistry& registry) {
  registry.add(binaryOp<Accepts::Numeric>("Add", kAdd));
  registry.add(binaryOp<Accepts::Numeric>("Sub", [](auto a, auto b) { return wrapping(a, b, std::minus<>()); }));
  OpDef mul = binaryOp<Accepts::Numeric>("Mul", [](auto a, auto b) { return wrapping(a, b, std::multiplies<>()); });
  mul.fusionRole = FusionRole::Product;
  registry.add(std::move(mul));
  OpDef div = binaryOp<Accepts::Numeric>("Div", [](auto a, auto b) { return divide(a, b); });
  div.fusionRole = FusionRole::Quotient;
  registry.add(std::move(div));
  registry.add(binaryOp<Accepts::Numeric>("Mod", {{"fmod", AttrKind::Int}}, [](const AttrMap& attrs) {
    bool fmod = attrs.getInt("fmod", 0) != 0;
    return [fmod](auto a, auto b) { return modulo(a, b, fmod); };
  }));
  registry.add(powOp());
  registry.add(variadicOp<Accepts::Numeric>("Min", kMin));
  registry.add(variadicOp<Accepts::Numeric>("Max", kMax));
  registry.add(variadicOp<Accepts::Float>("Sum", kAdd));
  registry.add(meanOp());
}

} // namespace tcx::elementwise
