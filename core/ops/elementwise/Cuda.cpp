// The CUDA form of this family's ops: expressions over the device
// functions of kernels/include/tcx/scalar.cuh. An op missing here has no GPU
// lowering yet, and code generation says so naming it.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <fmt/format.h>

namespace tcx::elementwise {

namespace {

// A float attribute as a literal of the result's compute type.
std::string attrLiteral(const CudaExprContext& ctx, const char* attr, float dflt) {
  return fmt::format("{}({})", ctx.resultType, static_cast<double>(ctx.node.attrs().getFloat(attr, dflt)));
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

} // namespace

void registerCudaForms(OpRegistry& registry) {
  for (const char* name : {"Add", "Sub", "Mul", "Div", "Pow", "Neg", "Abs", "Sqrt", "Reciprocal", "Exp", "Log", "Tanh",
                           "Erf", "Sin", "Cos", "Floor", "Ceil", "Round", "Relu", "Sigmoid", "HardSwish", "Softplus",
                           "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not",
                           "Where"})
    registry.edit(name).cudaExpr = cudaCall(name);
  registry.edit("Sum").cudaExpr = variadic("Add", false);
  registry.edit("Mean").cudaExpr = variadic("Add", true);
  registry.edit("Max").cudaExpr = variadic("Max", false);
  registry.edit("Min").cudaExpr = variadic("Min", false);
  registry.edit("LeakyRelu").cudaExpr = [](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::LeakyRelu({}, {})", ctx.operands[0], attrLiteral(ctx, "alpha", 0.01f));
  };
  registry.edit("HardSigmoid").cudaExpr = [](const CudaExprContext& ctx) {
    return fmt::format("tcx::op::HardSigmoid({}, {}, {})", ctx.operands[0], attrLiteral(ctx, "alpha", 0.2f),
                       attrLiteral(ctx, "beta", 0.5f));
  };
  registry.edit("Gelu").cudaExpr = [](const CudaExprContext& ctx) {
    bool tanh = ctx.node.attrs().getString("approximate", "none") == "tanh";
    return fmt::format("tcx::op::{}({})", tanh ? "GeluTanh" : "GeluErf", ctx.operands[0]);
  };
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
                 : fmt::format("{}(tcx::op::Limits<{}>::{}())", ctx.resultType, ctx.resultType, sign);
    };
    return fmt::format("tcx::op::Clip({}, {}, {})", ctx.operands[0], bound(1, "lowest"), bound(2, "highest"));
  };
}

} // namespace tcx::elementwise
