// The CUDA form of this family's ops: expressions over the device
// functions of kernels/include/tcx/scalar.cuh, and statement forms for the
// two that need more than their operands' values at one index (Trilu reads
// the index, Dropout has a second output). An op missing here has no GPU
// lowering yet, and code generation says so naming it.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <cmath>
#include <fmt/format.h>

namespace tcx::elementwise {

namespace {

// A float attribute as a literal of the result's compute type.
std::string attrLiteral(const CudaExprContext& ctx, const char* attr, float dflt) {
  return fmt::format("{}({})", ctx.resultType, static_cast<double>(ctx.node.attrs().getFloat(attr, dflt)));
}

// f(x, alpha) for the ops whose one attribute is alpha.
CudaExprFn withAlpha(const char* function, float dflt) {
  return [function, dflt](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::{}({}, {})", function, ctx.operands[0], attrLiteral(ctx, "alpha", dflt));
  };
}

// Sum, Mean, Max and Min of any number of operands: a left fold.
CudaExprFn variadic(const char* binary, bool mean) {
  return [binary, mean](const CudaExprContext& ctx) {
    std::string acc = ctx.operands[0];
    for (size_t i = 1; i < ctx.operands.size(); ++i)
      acc = fmt::format("tcx::op::{}({}, {})", binary, acc, ctx.operands[i]);
    return mean ? fmt::format("({} / {}({}))", acc, ctx.resultType, ctx.operands.size()) : acc;
  };
}

// Div by a normal float scalar constant takes tcx::divideByConstant: the quotient IEEE division
// gives, as one double multiply instead of the division subroutine (tcx/divide.h says why and
// why it is exact). The reciprocal prints as a hex double, exactly.
std::string divExpr(const CudaExprContext& ctx) {
  const Value* divisor = ctx.node.input(1);
  if (ctx.resultType == "float" && divisor->isConstant() && divisor->constant().numElements() == 1) {
    const float c = static_cast<float>(divisor->constant().elementAsDouble(0));
    if (std::isnormal(c)) return fmt::format("tcx::divideByConstant({}, {:a})", ctx.operands[0], 1.0 / c);
  }
  return fmt::format("tcx::op::Div({}, {})", ctx.operands[0], ctx.operands[1]);
}

// Trilu keeps the upper (j >= i + k) or lower (j <= i + k) triangle of the
// last two dimensions. k is clamped to [-rows, cols] as on the CPU, past
// which every row is kept or zeroed whole, so that i + k cannot overflow.
std::string triluElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const Shape& x = node.input(0)->type().shape;
  const size_t rank = x.size();
  std::string k = "0LL";
  if (node.numInputs() > 1 && node.input(1))
    k = ctx.operandAt(1, std::vector<std::string>(node.input(1)->type().shape.size(), "0"));
  const bool upper = node.attrs().getInt("upper", 1) != 0;
  return fmt::format("const long long _k = tcx::op::Clip<long long>({k}, -{rows}LL, {cols}LL);\n"
                     "out = {j} {cmp} {i} + _k ? {x} : static_cast<{T}>(0);\n",
                     fmt::arg("k", k), fmt::arg("rows", x[rank - 2]), fmt::arg("cols", x[rank - 1]),
                     fmt::arg("i", ctx.outIndex[rank - 2]), fmt::arg("j", ctx.outIndex[rank - 1]),
                     fmt::arg("cmp", upper ? ">=" : "<="), fmt::arg("x", ctx.operandAt(0, ctx.outIndex)),
                     fmt::arg("T", ctx.resultType));
}

// Dropout at inference: the data unchanged and, as its second output, an
// all-true mask. A stage rather than an expression, since an expression
// computes a node's first output only. Inference is certain only when
// training_mode is known; shape inference rejected a training node that
// would drop anything.
std::string dropoutElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  TCX_CHECK(node.numInputs() < 3 || !node.input(2) || node.input(2)->isConstant(), ErrorKind::Unsupported,
            "Dropout with training_mode computed at run time");
  return ctx.output == 0 ? fmt::format("out = {};\n", ctx.operandAt(0, ctx.outIndex)) : "out = true;\n";
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  for (const char* name : {"Add", "Sub", "Mul", "Pow", "Neg", "Abs", "Sqrt", "Reciprocal", "Exp", "Log", "Tanh",
                           "Erf", "Sin", "Cos", "Floor", "Ceil", "Round", "Relu", "Sigmoid", "HardSwish", "Softplus",
                           "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not",
                           "Where", "Mish", "Softsign", "Sign", "Tan", "PRelu", "IsNaN"})
    registry.edit(name).cudaExpr = cudaCall(name);
  registry.edit("Div").cudaExpr = divExpr;
  registry.edit("Sum").cudaExpr = variadic("Add", false);
  registry.edit("Mean").cudaExpr = variadic("Add", true);
  registry.edit("Max").cudaExpr = variadic("Max", false);
  registry.edit("Min").cudaExpr = variadic("Min", false);
  registry.edit("LeakyRelu").cudaExpr = withAlpha("LeakyRelu", 0.01f);
  registry.edit("ThresholdedRelu").cudaExpr = withAlpha("ThresholdedRelu", 1.0f);
  registry.edit("Elu").cudaExpr = withAlpha("Elu", 1.0f);
  registry.edit("Celu").cudaExpr = withAlpha("Celu", 1.0f);
  registry.edit("Selu").cudaExpr = [](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::Selu({}, {}, {})", ctx.operands[0],
                       attrLiteral(ctx, "alpha", 1.67326319217681884765625f),
                       attrLiteral(ctx, "gamma", 1.05070102214813232421875f));
  };
  registry.edit("Mod").cudaExpr = [](const CudaExprContext& ctx) {
    const bool fmod = ctx.node.attrs().getInt("fmod", 0) != 0;
    return fmt::format("tcx::op::{}({}, {})", fmod ? "Fmod" : "Mod", ctx.operands[0], ctx.operands[1]);
  };
  registry.edit("IsInf").cudaExpr = [](const CudaExprContext& ctx) {
    const AttrMap& attrs = ctx.node.attrs();
    return fmt::format("tcx::op::IsInf({}, {}, {})", ctx.operands[0], attrs.getInt("detect_negative", 1) != 0,
                       attrs.getInt("detect_positive", 1) != 0);
  };
  registry.edit("HardSigmoid").cudaExpr = [](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::HardSigmoid({}, {}, {})", ctx.operands[0], attrLiteral(ctx, "alpha", 0.2f),
                       attrLiteral(ctx, "beta", 0.5f));
  };
  registry.edit("Gelu").cudaExpr = [](const CudaExprContext& ctx) {
    bool tanh = ctx.node.attrs().getString("approximate", "none") == "tanh";
    return fmt::format("tcx::op::{}({})", tanh ? "GeluTanh" : "GeluErf", ctx.operands[0]);
  };
  registry.edit("Trilu").cudaElement = triluElement;
  registry.edit("Dropout").cudaElement = dropoutElement;
  auto cast = [](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::Cast<{}>({})", ctx.resultType, ctx.operands[0]);
  };
  registry.edit("Cast").cudaExpr = cast;
  registry.edit("CastLike").cudaExpr = cast;
  // Absent bounds are the widest the type has.
  registry.edit("Clip").cudaExpr = [](const CudaExprContext& ctx) {
    auto bound = [&](size_t i, const char* sign) {
      return i < ctx.operands.size() && !ctx.operands[i].empty()
                 ? ctx.operands[i]
                 : fmt::format("tcx::op::Limits<{}>::{}()", ctx.resultType, sign);
    };
    return fmt::format("tcx::op::Clip({}, {}, {})", ctx.operands[0], bound(1, "lowest"), bound(2, "highest"));
  };
}

} // namespace tcx::elementwise
