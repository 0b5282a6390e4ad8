// Boolean logic and comparisons: And, Or, Xor, Not, Equal, Less, Greater,
// LessOrEqual, GreaterOrEqual.

#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"

namespace tcx::elementwise {

void registerLogicOps(OpRegistry& registry) {
  registry.add(binaryOp<Accepts::Bool>("And", [](bool a, bool b) { return a && b; }));
  registry.add(binaryOp<Accepts::Bool>("Or", [](bool a, bool b) { return a || b; }));
  registry.add(binaryOp<Accepts::Bool>("Xor", [](bool a, bool b) { return a != b; }));
  registry.add(unaryOp<Accepts::Bool>("Not", [](bool a) { return !a; }));

  registry.add(binaryOp<Accepts::Any, Yields::Bool>("Equal", [](auto a, auto b) { return a == b; }));
  registry.add(binaryOp<Accepts::Numeric, Yields::Bool>("Less", [](auto a, auto b) { return a < b; }));
  registry.add(binaryOp<Accepts::Numeric, Yields::Bool>("Greater", [](auto a, auto b) { return a > b; }));
  registry.add(binaryOp<Accepts::Numeric, Yields::Bool>("LessOrEqual", [](auto a, auto b) { return a <= b; }));
  registry.add(binaryOp<Accepts::Numeric, Yields::Bool>("GreaterOrEqual", [](auto a, auto b) { return a >= b; }));
}

} // namespace tcx::elementwise
