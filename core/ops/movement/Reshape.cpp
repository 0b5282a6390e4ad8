// Ops that relabel the shape and keep every element where it is in
// row-major order: the output is a byte copy of the input, so only shape
// inference differs between them.

#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/StridedCopy.h"

#include <algorithm>
#include <optional>

namespace tcx {

namespace {

// ONNX Reshape: 0 copies the input dimension at the same position (unless
// allowzero, where it means an empty dimension) and one -1 takes the rest.
Shape reshapeShape(const Shape& in, const std::vector<int64_t>& requested, bool allowZero) {
  Shape out(requested.size());
  std::optional<size_t> inferred;
  int64_t known = 1;
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t d = requested[i];
    if (d == -1) {
      TCX_CHECK(!inferred, ErrorKind::ShapeInference, "shape {} has more than one -1", shapeToString(requested));
      inferred = i;
      continue;
    }
    TCX_CHECK(d >= 0, ErrorKind::ShapeInference, "shape {} has a negative dimension", shapeToString(requested));
    if (d == 0 && !allowZero) {
      TCX_CHECK(i < in.size(), ErrorKind::ShapeInference,
                "shape {} copies dimension {} of an input of shape {}, which has none", shapeToString(requested), i,
                shapeToString(in));
      d = in[i];
    }
    TCX_CHECK(!__builtin_mul_overflow(known, d, &known), ErrorKind::ShapeInference, "shape {} is too large",
              shapeToString(requested));
    out[i] = d;
  }
  const int64_t total = numElements(in);
  if (inferred) {
    TCX_CHECK(known != 0 && total % known == 0, ErrorKind::ShapeInference,
              "cannot infer the -1 of shape {} for an input of shape {}", shapeToString(requested),
              shapeToString(in));
    out[*inferred] = total / known;
  }
  TCX_CHECK(numElements(out) == total, ErrorKind::ShapeInference, "cannot reshape {} into {}", shapeToString(in),
            shapeToString(out));
  return out;
}

void inferReshape(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  std::vector<int64_t> requested = intList(ctx.requireInputValue(1, "shape"), "shape");
  ctx.setOutputType(0, {data.dtype, reshapeShape(data.shape, requested, ctx.attrs().getInt("allowzero", 0) != 0)});
}

// Without axes, Squeeze drops every dimension of size 1.
void inferSqueeze(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  std::vector<int64_t> axes;
  if (const Tensor* value = optionalValue(ctx, 1, "axes")) {
    axes = normalizeAxes(intList(*value, "axes"), data.rank());
    for (int64_t a : axes)
      TCX_CHECK(data.shape[a] == 1, ErrorKind::ShapeInference, "cannot squeeze axis {} of shape {}", a,
                shapeToString(data.shape));
  } else {
    for (int64_t a = 0; a < data.rank(); ++a)
      if (data.shape[a] == 1) axes.push_back(a);
  }
  Shape out;
  for (int64_t a = 0; a < data.rank(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out.push_back(data.shape[a]);
  ctx.setOutputType(0, {data.dtype, out});
}

// Unsqueeze's axes index the output, so negative ones count from its end.
void inferUnsqueeze(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  std::vector<int64_t> axes = intList(ctx.requireInputValue(1, "axes"), "axes");
  const int64_t outRank = data.rank() + static_cast<int64_t>(axes.size());
  axes = normalizeAxes(axes, outRank);
  Shape out(outRank, 1);
  auto in = data.shape.begin();
  for (int64_t a = 0; a < outRank; ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out[a] = *in++;
  ctx.setOutputType(0, {data.dtype, out});
}

// Flatten's axis may equal the rank (everything goes to the first dimension).
void inferFlatten(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  int64_t axis = ctx.attrs().getInt("axis", 1);
  TCX_CHECK(axis >= -data.rank() && axis <= data.rank(), ErrorKind::ShapeInference,
            "axis {} is out of range for rank {}", axis, data.rank());
  if (axis < 0) axis += data.rank();
  Shape outer(data.shape.begin(), data.shape.begin() + axis);
  Shape inner(data.shape.begin() + axis, data.shape.end());
  ctx.setOutputType(0, {data.dtype, {numElements(outer), numElements(inner)}});
}

void inferIdentity(InferContext& ctx) { ctx.setOutputType(0, ctx.inputType(0)); }

void copyInput(KernelContext& ctx) { copyAllElements(ctx.input(0), ctx.output(0)); }

} // namespace

void registerReshapeOps(OpRegistry& registry) {
  registry.add({.name = "Reshape",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .attributes = {{"allowzero", AttrKind::Int}},
                .infer = inferReshape,
                .kernel = copyInput,
                .movement = relabelRule,
                .fusionRole = FusionRole::Reshape});
  registry.add({.name = "Squeeze",
                .opClass = OpClass::DataMovement,
                .minInputs = 1,
                .maxInputs = 2,
                .infer = inferSqueeze,
                .kernel = copyInput,
                .movement = relabelRule});
  registry.add({.name = "Unsqueeze",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .infer = inferUnsqueeze,
                .kernel = copyInput,
                .movement = relabelRule});
  registry.add({.name = "Flatten",
                .opClass = OpClass::DataMovement,
                .attributes = {{"axis", AttrKind::Int}},
                .infer = inferFlatten,
                .kernel = copyInput,
                .movement = relabelRule});
  registry.add({.name = "Identity", .opClass = OpClass::DataMovement, .infer = inferIdentity, .kernel = copyInput,
                .movement = relabelRule});
}

} // namespace tcx
