// Activation functions: Relu, LeakyRelu, PRelu, ThresholdedRelu, Elu, Selu,
// Celu, Sigmoid, HardSigmoid, HardSwish, Softplus, Softsign, Gelu, Mish.

#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"
#include "ops/elementwise/ScalarMath.h"
#include "ops/elementwise/VectorMath.h"

#include <algorithm>
#include <numbers>
#include <variant>

namespace tcx::elementwise {

namespace {

// log(1 + e^x) without overflow for large x.
template <typename C> C softplus(C x) {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

template <typename C> C clampUnit(C x) { return std::clamp(x, C(0), C(1)); }

// An op with one float attribute, alpha (default `dflt`): f(x, alpha).
template <typename F> OpDef unaryWithAlpha(std::string name, float dflt, F f) {
  return unaryOp<Accepts::Float>(std::move(name), {{"alpha", AttrKind::Float}}, [dflt, f](const AttrMap& attrs) {
    float alpha = attrs.getFloat("alpha", dflt);
    return [alpha, f](auto x) { return f(x, static_cast<decltype(x)>(alpha)); };
  });
}

// Both forms are written so that nothing cancels for negative x:
// 1 + erf(y) = erfc(-y) and 1 + tanh(u) = 2 / (1 + e^-2u).
constexpr auto kGeluErf = [](auto x) {
  using C = decltype(x);
  return C(0.5) * x * vmath::erfc(-x / std::numbers::sqrt2_v<C>);
};
constexpr auto kGeluTanh = [](auto x) {
  using C = decltype(x);
  constexpr C sqrtTwoOverPi = std::numbers::sqrt2_v<C> * std::numbers::inv_sqrtpi_v<C>;
  return x / (C(1) + vmath::exp(C(-2) * sqrtTwoOverPi * (x + C(0.044715) * x * x * x)));
};

OpDef geluOp() {
  return unaryOp<Accepts::Float>("Gelu", {{"approximate", AttrKind::String}}, [](const AttrMap& attrs) {
    using Form = std::variant<decltype(kGeluErf), decltype(kGeluTanh)>;
    std::string approximate = attrs.getString("approximate", "none");
    TCX_CHECK(approximate == "none" || approximate == "tanh", ErrorKind::InvalidModel,
              "approximate must be 'none' or 'tanh', got '{}'", approximate);
    return approximate == "tanh" ? Form(kGeluTanh) : Form(kGeluErf);
  });
}

// The slope broadcasts to the input, never the other way round.
OpDef preluOp() {
  OpDef def = binaryOp<Accepts::Numeric>(
      "PRelu", [](auto x, auto slope) { return isNegative(x) ? wrapping(x, slope, std::multiplies<>()) : x; });
  def.infer = [broadcast = std::move(def.infer)](InferContext& ctx) {
    broadcast(ctx);
    const Shape& x = ctx.inputType(0).shape;
    TCX_CHECK(broadcastShapes(x, ctx.inputType(1).shape) == x, ErrorKind::ShapeInference,
              "slope of shape {} does not broadcast to the input shape {}", shapeToString(ctx.inputType(1).shape),
              shapeToString(x));
  };
  return def;
}

} // namespace

void registerActivationOps(OpRegistry& registry) {
  registry.add(unaryOp<Accepts::Numeric>("Relu", [](auto x) { return isNegative(x) ? decltype(x)(0) : x; }));
  registry.add(unaryWithAlpha("LeakyRelu", 0.01f, [](auto x, auto alpha) { return x < 0 ? alpha * x : x; }));
  registry.add(preluOp());
  registry.add(unaryWithAlpha("ThresholdedRelu", 1.0f, [](auto x, auto alpha) { return x > alpha ? x : 0; }));
  registry.add(unaryWithAlpha("Elu", 1.0f, [](auto x, auto alpha) { return x < 0 ? alpha * std::expm1(x) : x; }));
  registry.add(unaryOp<Accepts::Float>(
      "Selu", {{"alpha", AttrKind::Float}, {"gamma", AttrKind::Float}}, [](const AttrMap& attrs) {
        float alpha = attrs.getFloat("alpha", 1.67326319217681884765625f);
        float gamma = attrs.getFloat("gamma", 1.05070102214813232421875f);
        return [alpha, gamma](auto x) {
          using C = decltype(x);
          return C(gamma) * (x > 0 ? x : C(alpha) * std::expm1(x));
        };
      }));
  registry.add(unaryWithAlpha("Celu", 1.0f, [](auto x, auto alpha) {
    return std::max(decltype(x)(0), x) + std::min(decltype(x)(0), alpha * std::expm1(x / alpha));
  }));
  registry.add(unaryOp<Accepts::Float>("Sigmoid", [](auto x) { return 1 / (1 + vmath::exp(-x)); }));
  registry.add(unaryOp<Accepts::Float>(
      "HardSigmoid", {{"alpha", AttrKind::Float}, {"beta", AttrKind::Float}}, [](const AttrMap& attrs) {
        float alpha = attrs.getFloat("alpha", 0.2f);
        float beta = attrs.getFloat("beta", 0.5f);
        return [alpha, beta](auto x) {
          using C = decltype(x);
          return clampUnit(C(alpha) * x + C(beta));
        };
      }));
  registry.add(unaryOp<Accepts::Float>("HardSwish", [](auto x) { return x * clampUnit(x / 6 + decltype(x)(0.5)); }));
  registry.add(unaryOp<Accepts::Float>("Softplus", [](auto x) { return softplus(x); }));
  registry.add(unaryOp<Accepts::Float>("Softsign", [](auto x) { return x / (1 + std::fabs(x)); }));
  registry.add(geluOp());
  registry.add(unaryOp<Accepts::Float>("Mish", [](auto x) { return x * vmath::tanh(softplus(x)); }));
}

} // namespace tcx::elementwise
