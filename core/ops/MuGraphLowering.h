#pragma once
// An op's μGraph form, part of its registry entry: whether it lies in
// Mirage's LAX fragment and which kernel-level μGraph operators (Mirage
// Table 1) compute it. Like CudaLowering.h, this describes the form without
// depending on its consumer: core/mugraph sits above the ops and implements
// MuGraphBuilder over its kernel graph (mugraph/Conversion.cpp).

#include "ir/Shape.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tcx {

class Node;
class Value;

// The μGraph operators a lowering may use. A handle names a tensor of the
// μGraph under construction; only the builder that gave it out reads it.
class MuGraphBuilder {
public:
  using Handle = int;

  virtual ~MuGraphBuilder() = default;

  // The μGraph tensor holding `value`, an operand of the node being lowered
  // (one of its first MuGraphForm::dataOperands).
  virtual Handle value(const Value* value) = 0;
  virtual Handle constant(double value) = 0;
  virtual Handle add(Handle x, Handle y) = 0;
  virtual Handle mul(Handle x, Handle y) = 0;
  virtual Handle div(Handle x, Handle y) = 0;
  virtual Handle exp(Handle x) = 0;
  virtual Handle sqrt(Handle x) = 0;
  virtual Handle square(Handle x) = 0;
  // Sums each run of `group` consecutive elements along `dim` into one.
  virtual Handle sum(Handle x, int dim, int64_t group) = 0;
  virtual Handle reshape(Handle x, Shape shape) = 0;
  // Tiles `x` factors[d] times along each dimension d.
  virtual Handle repeat(Handle x, Shape factors) = 0;
  // Matrix product over the last two dimensions, batched over the others.
  virtual Handle matmul(Handle x, Handle y) = 0;
};

// Computes the node's (first) result from its data operands.
using MuGraphLowerFn = std::function<MuGraphBuilder::Handle(const Node&, MuGraphBuilder&)>;

struct MuGraphForm {
  // Unset: no μGraph operator computes the op.
  MuGraphLowerFn lower;
  // Operands past these are shapes, axes and exponents: attributes of the
  // μGraph operators, not tensors of the μGraph.
  size_t dataOperands = 1;
  // Exponentiations on a path through the op (Exp, Sigmoid, Softmax: 1):
  // LAX allows one per path (Mirage §1).
  int exps = 0;
  // Whether the op is in the LAX fragment; Sqrt converts but is not.
  bool lax = true;
  // Attributes or constant operands that `lower` cannot express: why the
  // node has no μGraph form ("Pow with an exponent other than a constant 2
  // has no μGraph operator"), or nullopt when it has one. Unset: none.
  std::function<std::optional<std::string>(const Node&)> unsupported;
};

} // namespace tcx
