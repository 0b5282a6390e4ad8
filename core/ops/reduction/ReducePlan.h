#pragma once
// Which axes a reduction folds, the shape it produces, and the loop nest that
// folds them: the shape-level half of the generic reduction driver
// (ReduceDriver.h holds the element-level half).

#include "ir/Attribute.h"
#include "ir/Shape.h"

#include <vector>

namespace tcx::reduction {

// Axis d is folded iff mask[d].
using AxisMask = std::vector<bool>;

// The axes a Reduce* op folds, given its `axes` operand (nullptr when
// omitted): every axis when the operand is absent or empty, unless
// noop_with_empty_axes is set, in which case none.
AxisMask reduceAxesMask(const Tensor* axes, const AttrMap& attrs, int64_t rank);

// The output shape: folded axes become 1 (keepdims) or disappear.
Shape reducedShape(const Shape& in, const AxisMask& mask, bool keepdims);

// The input walked in row-major order as rows of its innermost block of
// axes, after dropping size-1 axes and merging neighbours that are both folded
// or both kept. A row is either folded into one output (rowFolded) or, when
// kept, combined element-wise into a contiguous run of outputs; either way
// the inner loop is contiguous. Row r starts at input offset r * rowLength
// and at output offset outerOutputStrides . (index of r in `outer`).
struct ReducePlan {
  ReducePlan(const Shape& in, const AxisMask& mask);

  Shape outer;
  std::vector<int64_t> outerOutputStrides;
  int64_t rowLength = 1;
  bool rowFolded = false;
  int64_t foldedCount = 1; // input elements folded into each output
  int64_t outputCount = 1;
};

} // namespace tcx::reduction
