#pragma once
// One element of a pre-defined μGraph operator as CUDA statements, the same
// at every level: a kernel's threads over device buffers, a block's threads
// over shared memory, one thread over its registers. Only where operands
// live differs, and a Slot hides it. Arithmetic is in float whatever the
// storage type; the module prelude's ld/st convert.

#include "mugraph/Operator.h"

#include <string>
#include <vector>

namespace tcx::mugraphcuda {

// Where a tensor lives in generated code: a pointer or array, or the
// literal of a scalar Constant (shape [1], so every read gives it).
struct Slot {
  std::string name;
  bool scalar = false;
  // A float expression reading element `offset`.
  std::string read(const std::string& offset) const;
  // A statement storing the float expression `value` at element `offset`.
  std::string write(const std::string& offset, const std::string& value) const;
};

// Statements that declare `float v` as element `i` (an int variable) of
// `op`'s output of shape `out`, whose operands live in `operands`, of shapes
// `operandShapes`. Raises Internal for the operators that are not
// element-wise computations (Input, iterators, accumulators, for-loop
// accumulations, Reshape, Constant, GraphDefined).
std::string elementValue(const mugraph::Operator& op, const std::vector<Slot>& operands,
                         const std::vector<Shape>& operandShapes, const Shape& out, const std::string& i);

// `text`, every line indented by `depth` levels and ended with a newline.
std::string indented(const std::string& text, int depth);

} // namespace tcx::mugraphcuda
