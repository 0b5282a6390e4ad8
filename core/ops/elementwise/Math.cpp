// Unary math: Sqrt, Reciprocal, Exp, Log, Neg, Abs, Erf, Tanh, Sin, Cos,
// Tan, Floor, Ceil, Round, Sign, and the tests IsNaN and IsInf.

#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"
#include "ops/elementwise/ScalarMath.h"
#include "ops/elementwise/VectorMath.h"

#include <limits>

namespace tcx::elementwise {

void registerMathOps(OpRegistry& registry) {
  registry.add(unaryOp<Accepts::Float>("Sqrt", [](auto x) { return std::sqrt(x); }));
  registry.add(unaryOp<Accepts::Float>("Reciprocal", [](auto x) { return decltype(x)(1) / x; }));
  registry.add(unaryOp<Accepts::Float>("Exp", [](auto x) { return vmath::exp(x); }));
  registry.add(unaryOp<Accepts::Float>("Log", [](auto x) { return std::log(x); }));
  registry.add(unaryOp<Accepts::Float>("Erf", [](auto x) { return vmath::erf(x); }));
  registry.add(unaryOp<Accepts::Float>("Tanh", [](auto x) { return vmath::tanh(x); }));
  registry.add(unaryOp<Accepts::Float>("Sin", [](auto x) { return std::sin(x); }));
  registry.add(unaryOp<Accepts::Float>("Cos", [](auto x) { return std::cos(x); }));
  registry.add(unaryOp<Accepts::Float>("Tan", [](auto x) { return std::tan(x); }));
  registry.add(unaryOp<Accepts::Float>("Floor", [](auto x) { return std::floor(x); }));
  registry.add(unaryOp<Accepts::Float>("Ceil", [](auto x) { return std::ceil(x); }));
  // nearbyint rounds in the default mode, to nearest even, as ONNX's Round does.
  registry.add(unaryOp<Accepts::Float>("Round", [](auto x) { return std::nearbyint(x); }));

  registry.add(unaryOp<Accepts::Numeric>("Neg", [](auto x) { return negate(x); }));
  registry.add(unaryOp<Accepts::Numeric>("Abs", [](auto x) {
    if constexpr (std::is_floating_point_v<decltype(x)>)
      return std::fabs(x);
    else
      return isNegative(x) ? negate(x) : x;
  }));
  registry.add(unaryOp<Accepts::Numeric>("Sign", [](auto x) {
    using C = decltype(x);
    return x > C(0) ? C(1) : isNegative(x) ? C(-1) : x; // keeps 0 and NaN
  }));

  OpDef isNaN = unaryOp<Accepts::Float, Yields::Bool>("IsNaN", [](auto x) { return std::isnan(x); });
  isNaN.fusionRole = FusionRole::NanTest;
  registry.add(std::move(isNaN));
  registry.add(unaryOp<Accepts::Float, Yields::Bool>(
      "IsInf", {{"detect_negative", AttrKind::Int}, {"detect_positive", AttrKind::Int}}, [](const AttrMap& attrs) {
        bool negative = attrs.getInt("detect_negative", 1) != 0;
        bool positive = attrs.getInt("detect_positive", 1) != 0;
        return [negative, positive](auto x) {
          constexpr auto inf = std::numeric_limits<decltype(x)>::infinity();
          return (negative && x == -inf) || (positive && x == inf);
        };
      }));
}

} // namespace tcx::elementwise
