// The μGraph form of this family's ops: Mirage's element-wise operators
// (EwAdd, EwMul, EwDiv, EwExp, Sqrt, Square) and what the others are in
// terms of them. An op missing here has no μGraph form.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/ElementwiseOps.h"

namespace tcx::elementwise {

namespace {

using Handle = MuGraphBuilder::Handle;

Handle negate(MuGraphBuilder& b, Handle x) { return b.mul(x, b.constant(-1)); }

// f(x) over the node's one data operand.
MuGraphForm unary(Handle (*f)(MuGraphBuilder&, Handle)) {
  return {.lower = [f](const Node& n, MuGraphBuilder& b) { return f(b, b.value(n.input(0))); }};
}

// f(x, y) over the node's two data operands.
MuGraphForm binary(Handle (*f)(MuGraphBuilder&, Handle, Handle)) {
  return {.lower = [f](const Node& n, MuGraphBuilder& b) { return f(b, b.value(n.input(0)), b.value(n.input(1))); },
          .dataOperands = 2};
}

bool isConstantTwo(const Value* v) {
  return v && v->isConstant() && v->constant().numElements() == 1 && v->constant().elementAsDouble(0) == 2.0;
}

} // namespace

void registerMuGraphForms(OpRegistry& registry) {
  registry.edit("Add").muGraph = binary([](MuGraphBuilder& b, Handle x, Handle y) { return b.add(x, y); });
  registry.edit("Sub").muGraph = binary([](MuGraphBuilder& b, Handle x, Handle y) { return b.add(x, negate(b, y)); });
  registry.edit("Mul").muGraph = binary([](MuGraphBuilder& b, Handle x, Handle y) { return b.mul(x, y); });
  registry.edit("Div").muGraph = binary([](MuGraphBuilder& b, Handle x, Handle y) { return b.div(x, y); });

  MuGraphForm exp = unary([](MuGraphBuilder& b, Handle x) { return b.exp(x); });
  exp.exps = 1;
  registry.edit("Exp").muGraph = exp;

  MuGraphForm sqrt = unary([](MuGraphBuilder& b, Handle x) { return b.sqrt(x); });
  sqrt.lax = false;
  registry.edit("Sqrt").muGraph = sqrt;

  // x^2 is Square; the exponent is its attribute, not a μGraph tensor.
  MuGraphForm pow = unary([](MuGraphBuilder& b, Handle x) { return b.square(x); });
  pow.unsupported = [](const Node& n) -> std::optional<std::string> {
    if (isConstantTwo(n.input(1))) return std::nullopt;
    return "Pow with an exponent other than a constant 2 has no μGraph operator";
  };
  registry.edit("Pow").muGraph = pow;

  // 1 / (1 + e^-x)
  MuGraphForm sigmoid = unary([](MuGraphBuilder& b, Handle x) {
    Handle one = b.constant(1);
    return b.div(one, b.add(one, b.exp(negate(b, x))));
  });
  sigmoid.exps = 1;
  registry.edit("Sigmoid").muGraph = sigmoid;

  // μGraphs compute over one field (reals, or Z_p x Z_q when verifying):
  // a cast changes nothing there.
  registry.edit("Cast").muGraph = unary([](MuGraphBuilder&, Handle x) { return x; });
}

} // namespace tcx::elementwise
