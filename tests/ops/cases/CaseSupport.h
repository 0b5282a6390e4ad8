#pragma once
// What the case files share: typed constants, inputs that reach an op as
// virtual tensors, and the short names of dtypes and attribute lists.

#include "ComputeOpCases.h"

#include "ops/GraphBuilder.h"

#include <string>
#include <vector>

namespace tcx::test {

// How an op's input is produced: a graph input as it is, or through a
// data-movement op that VTC turns into a mapping function, so that the op
// reads a virtual tensor in the optimised plan.
enum class Feed {
  Direct,
  Transposed,   // the last two dimensions swapped back: a non-contiguous mapping
  Sliced,       // a window of a wider input along the last dimension
  Concatenated, // two inputs joined along the last dimension: a piecewise mapping
  Padded,       // zeros around a narrower input along the last dimension: a fill piece
};

// A value of `dtype` and `shape` named `name`, produced as `how` says.
Value* feed(GraphBuilder& b, const std::string& name, DType dtype, const Shape& shape, Feed how);

// A constant of `dtype` from values written as doubles: floats round to
// nearest, integers wrap (through int64), bool is `!= 0`.
Value* typedConstant(GraphBuilder& b, const std::string& name, DType dtype, const Shape& shape,
                     const std::vector<double>& values);

// `x` with negative values too: random integer inputs lie in [0, 4)
// (exec/RandomInputs.h), so signed integers are shifted down by 2; floats
// (in [-1, 1)) and unsigned ones are returned as they are.
Value* withNegatives(GraphBuilder& b, Value* x);

// "<what> <dtype>": a case's name.
std::string caseName(const std::string& what, DType dtype);

// An Ints attribute or shape list, written inline.
using Ints = std::vector<int64_t>;

} // namespace tcx::test
