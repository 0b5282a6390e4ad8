#pragma once
// Mapping-function semantics of the data-movement ops whose maps are
// piecewise or read a constant index operand: Concat, Split, Pad, ScatterND
// and Gather. (Ops that are one strided view use ViewMapping.h.)

#include "ops/MovementSemantics.h"

#include <optional>
#include <vector>

namespace tcx {

// Concat along `axis`: output pieces per input; each input lands once.
MovementSemantics concatSemantics(const std::vector<Shape>& inputs, const Shape& output, int64_t axis);
// Split along `axis` into `outputs`: each output a window of the input; the
// input lands once, piecewise over the outputs.
MovementSemantics splitSemantics(const Shape& input, const std::vector<Shape>& outputs, int64_t axis);
// Constant-mode Pad with per-axis `begins` (negative: cropped): the interior
// reads the input, the border is `fill`. The input lands once when nothing
// is cropped.
MovementSemantics padSemantics(const Shape& input, const Shape& output, const std::vector<int64_t>& begins, double fill);
// ScatterND without reduction whose constant indices address a box of data
// (each index component a batch index plus a constant, or a constant): the
// box reads the updates, the rest the data; the updates land once. nullopt
// for any other index pattern.
std::optional<MovementSemantics> scatterNDSemantics(const Shape& data, const Tensor& indices, const Shape& updates);
// Gather along `axis` with constant indices that step evenly (a scalar, or
// start + step * i): a strided window of the data. nullopt otherwise.
std::optional<MovementSemantics> gatherSemantics(const Shape& data, const Tensor& indices, int64_t axis, const Shape& output);

} // namespace tcx
