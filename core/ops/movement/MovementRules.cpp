#include "ops/movement/MovementRules.h"

#include "ir/Graph.h"
#include "ops/OpDef.h"
#include "ops/movement/Operands.h"
#include "ops/movement/PiecewiseSemantics.h"
#include "ops/movement/ViewMapping.h"
#include "ops/movement/Views.h"

namespace tcx {

namespace {
const Shape& inShape(const MovementContext& ctx, size_t i = 0) { return ctx.inputTypes[i]->shape; }
const Shape& outShape(const MovementContext& ctx, size_t o = 0) { return ctx.outputTypes[o].shape; }
const Tensor* value(const MovementContext& ctx, size_t i) { return i < ctx.inputValues.size() ? ctx.inputValues[i] : nullptr; }
bool present(const MovementContext& ctx, size_t i) { return i < ctx.inputTypes.size() && ctx.inputTypes[i]; }
// Present operands must be constants for the op to have a mapping.
bool constantsKnown(const MovementContext& ctx, std::initializer_list<size_t> operands) {
  for (size_t i : operands)
    if (present(ctx, i) && !value(ctx, i)) return false;
  return true;
}
} // namespace

std::optional<MovementSemantics> relabelRule(const MovementContext& ctx) {
  MovementSemantics s;
  s.dataInputs = {0};
  s.outputMaps.push_back(MappingFunction::reshape(outShape(ctx), inShape(ctx)));
  s.inputMaps.push_back(MappingFunction::reshape(inShape(ctx), outShape(ctx)));
  return s;
}

std::optional<MovementSemantics> transposeRule(const MovementContext& ctx) {
  return viewSemantics(transposeView(inShape(ctx), ctx.node.attrs()), outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> depthToSpaceRule(const MovementContext& ctx) {
  return viewSemantics(depthToSpaceView(inShape(ctx), ctx.node.attrs()), outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> spaceToDepthRule(const MovementContext& ctx) {
  return viewSemantics(spaceToDepthView(inShape(ctx), ctx.node.attrs()), outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> sliceRule(const MovementContext& ctx) {
  if (!constantsKnown(ctx, {1, 2, 3, 4})) return std::nullopt;
  StridedView view = sliceView(inShape(ctx), *value(ctx, 1), *value(ctx, 2), value(ctx, 3), value(ctx, 4));
  return viewSemantics(view, outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> expandRule(const MovementContext& ctx) {
  if (!constantsKnown(ctx, {1})) return std::nullopt;
  return viewSemantics(expandView(inShape(ctx), *value(ctx, 1)), outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> tileRule(const MovementContext& ctx) {
  if (!constantsKnown(ctx, {1})) return std::nullopt;
  return viewSemantics(tileView(inShape(ctx), *value(ctx, 1)), outShape(ctx), inShape(ctx));
}

std::optional<MovementSemantics> concatRule(const MovementContext& ctx) {
  std::vector<Shape> inputs;
  for (size_t i = 0; i < ctx.inputTypes.size(); ++i) inputs.push_back(inShape(ctx, i));
  int64_t axis = dimensionAxis(ctx.node.attrs().getInt("axis"), static_cast<int64_t>(outShape(ctx).size()));
  return concatSemantics(inputs, outShape(ctx), axis);
}

std::optional<MovementSemantics> splitRule(const MovementContext& ctx) {
  std::vector<Shape> outputs(ctx.outputTypes.size());
  for (size_t o = 0; o < outputs.size(); ++o) outputs[o] = outShape(ctx, o);
  int64_t axis = dimensionAxis(ctx.node.attrs().getInt("axis", 0), static_cast<int64_t>(inShape(ctx).size()));
  return splitSemantics(inShape(ctx), outputs, axis);
}

std::optional<MovementSemantics> padRule(const MovementContext& ctx) {
  if (ctx.node.attrs().getString("mode", "constant") != "constant" || !constantsKnown(ctx, {1, 2, 3})) return std::nullopt;
  const Shape& in = inShape(ctx);
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) axes[static_cast<size_t>(d)] = d;
  if (value(ctx, 3)) axes = normalizeAxes(intList(*value(ctx, 3), "axes"), rank);
  std::vector<int64_t> pads = intList(*value(ctx, 1), "pads");
  std::vector<int64_t> begins(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < axes.size() && i < pads.size(); ++i) begins[static_cast<size_t>(axes[i])] = pads[i];
  double fill = value(ctx, 2) && value(ctx, 2)->numElements() > 0 ? value(ctx, 2)->elementAsDouble(0) : 0.0;
  return padSemantics(in, outShape(ctx), begins, fill);
}

std::optional<MovementSemantics> scatterNDRule(const MovementContext& ctx) {
  if (ctx.node.attrs().getString("reduction", "none") != "none" || !constantsKnown(ctx, {1})) return std::nullopt;
  return scatterNDSemantics(inShape(ctx, 0), *value(ctx, 1), inShape(ctx, 2));
}

std::optional<MovementSemantics> gatherRule(const MovementContext& ctx) {
  if (!constantsKnown(ctx, {1})) return std::nullopt;
  int64_t axis = dimensionAxis(ctx.node.attrs().getInt("axis", 0), static_cast<int64_t>(inShape(ctx).size()));
  return gatherSemantics(inShape(ctx), *value(ctx, 1), axis, outShape(ctx));
}

std::optional<MovementSemantics> nodeMovement(const Node& node) {
  if (!node.op().movement) return std::nullopt;
  std::vector<const TensorType*> types;
  std::vector<const Tensor*> values;
  for (const Value* in : node.inputs()) {
    types.push_back(in ? &in->type() : nullptr);
    values.push_back(in && in->isConstant() ? &in->constant() : nullptr);
  }
  std::vector<TensorType> outTypes;
  for (const Value* out : node.outputs()) outTypes.push_back(out->type());
  return node.op().movement(MovementContext{node, types, values, outTypes});
}

} // namespace tcx
