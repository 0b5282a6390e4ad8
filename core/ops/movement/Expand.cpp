// Ops that repeat the input: Expand (broadcasting) and Tile. Both are one
// strided view with zero strides where the input repeats.

#include "ops/OpRegistry.h"
#include "ops/StridedLoop.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/Views.h"

namespace tcx {

namespace {

void inferExpand(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  ctx.setOutputType(0, {data.dtype, expandView(data.shape, ctx.requireInputValue(1, "shape")).shape});
}

void runExpand(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(expandView(data.shape(), ctx.input(1)), data, ctx.output(0));
}

void inferTile(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  Shape v = tileView(data.shape, ctx.requireInputValue(1, "repeats")).shape;
  Shape out;
  for (size_t d = 0; d < v.size(); d += 2) out.push_back(v[d] * v[d + 1]);
  ctx.setOutputType(0, {data.dtype, out});
}

void runTile(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(tileView(data.shape(), ctx.input(1)), data, ctx.output(0));
}

} // namespace

// Expand broadcasts both ways: a requested 1 keeps the input's dimension.
StridedView expandView(const Shape& in, const Tensor& shapeValue) {
  std::vector<int64_t> shape = intList(shapeValue, "shape");
  for (int64_t d : shape)
    TCX_CHECK(d >= 0, ErrorKind::ShapeInference, "shape {} has a negative dimension", shapeToString(shape));
  Shape out = broadcastShapes(in, shape);
  return {out, broadcastStrides(in, out), 0};
}

// Output dimension d (of size repeats[d] * in[d]) as the pair (repeat,
// source index): the repeat has stride 0.
StridedView tileView(const Shape& in, const Tensor& repeatsValue) {
  std::vector<int64_t> repeats = intList(repeatsValue, "repeats");
  TCX_CHECK(repeats.size() == in.size(), ErrorKind::ShapeInference, "{} repeats for an input of shape {}",
            repeats.size(), shapeToString(in));
  std::vector<int64_t> inStrides = contiguousStrides(in);
  StridedView view;
  for (size_t d = 0; d < in.size(); ++d) {
    TCX_CHECK(repeats[d] >= 0, ErrorKind::ShapeInference, "repeats {} has a negative value",
              shapeToString(repeats));
    view.shape.insert(view.shape.end(), {repeats[d], in[d]});
    view.strides.insert(view.strides.end(), {0, inStrides[d]});
  }
  return view;
}

void registerExpandOps(OpRegistry& registry) {
  registry.add({.name = "Expand",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .infer = inferExpand,
                .kernel = runExpand,
                .movement = expandRule});
  registry.add({.name = "Tile",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .infer = inferTile,
                .kernel = runTile,
                .movement = tileRule});
}

} // namespace tcx
