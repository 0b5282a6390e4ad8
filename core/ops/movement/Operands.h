#pragma once
// Reading the operands that shape a data-movement op's output: shapes,
// axes, pads, repeats. (Element indices are in Indexing.h.)

#include "ops/OpDef.h"

#include <cstdint>
#include <vector>

namespace tcx {

// The values of a 1-D integer operand such as a shape or an axes list (a
// scalar counts as one value).
std::vector<int64_t> intList(const Tensor& operand, const char* what);

// The value of optional operand i, or nullptr when the node omits it.
// Inference needs it when present (DataDependentShape otherwise).
const Tensor* optionalValue(const InferContext& ctx, size_t i, const char* what);
const Tensor* optionalValue(const KernelContext& ctx, size_t i);

// An ONNX axis in [-rank, rank) mapped into [0, rank). Unlike normalizeAxis,
// a scalar has no axis 0: every caller indexes the shape with the result.
int64_t dimensionAxis(int64_t axis, int64_t rank);

// `axes` mapped into [0, rank); raises ShapeInference on an axis out of
// range or one given twice.
std::vector<int64_t> normalizeAxes(const std::vector<int64_t>& axes, int64_t rank);

} // namespace tcx
