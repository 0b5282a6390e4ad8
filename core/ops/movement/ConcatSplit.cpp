// Concat and Split, inverses of each other: along one axis, the output
// (Concat) or input (Split) is a sequence of chunks, one per operand, and
// every chunk is a strided copy of whole rows.

#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/StridedCopy.h"

namespace tcx {

namespace {

void inferConcat(InferContext& ctx) {
  const TensorType& first = ctx.inputType(0);
  const int64_t axis = dimensionAxis(ctx.attrs().getInt("axis"), first.rank());
  Shape out = first.shape;
  out[axis] = 0;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    const TensorType& in = ctx.inputType(i);
    TCX_CHECK(in.dtype == first.dtype, ErrorKind::ShapeInference, "input {} is {} but input 0 is {}", i,
              in.toString(), first.toString());
    bool compatible = in.rank() == first.rank();
    for (int64_t d = 0; compatible && d < in.rank(); ++d)
      compatible = d == axis || in.shape[d] == first.shape[d];
    TCX_CHECK(compatible, ErrorKind::ShapeInference, "cannot concatenate {} and {} along axis {}", first.toString(),
              in.toString(), axis);
    out[axis] += in.shape[axis];
  }
  ctx.setOutputType(0, {first.dtype, out});
}

// Input i goes to the output window that starts where input i-1 ended.
void runConcat(KernelContext& ctx) {
  Tensor& out = ctx.output(0);
  const int64_t axis = dimensionAxis(ctx.attrs().getInt("axis"), out.rank());
  const std::vector<int64_t> outStrides = contiguousStrides(out.shape());
  const int64_t elementSize = static_cast<int64_t>(dtypeSize(out.dtype()));
  int64_t begin = 0;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    const Tensor& in = ctx.input(i);
    copyStrided(in.shape(), out.raw() + begin * outStrides[axis] * elementSize, outStrides, in.raw(),
                contiguousStrides(in.shape()), static_cast<size_t>(elementSize));
    begin += in.shape()[axis];
  }
}

// Chunk sizes from the `split` operand, or else num_outputs equal chunks
// where the last may be smaller (opset 18). Without either (opset 13 and
// older), the node's outputs give the number of chunks.
std::vector<int64_t> splitSizes(int64_t dim, const Tensor* split, const AttrMap& attrs, int64_t numOutputs) {
  if (split) {
    TCX_CHECK(!attrs.has("num_outputs"), ErrorKind::InvalidModel,
              "the split input and the num_outputs attribute are mutually exclusive");
    std::vector<int64_t> sizes = intList(*split, "split");
    TCX_CHECK(static_cast<int64_t>(sizes.size()) == numOutputs, ErrorKind::ShapeInference,
              "split has {} sizes for {} outputs", sizes.size(), numOutputs);
    int64_t sum = 0;
    for (int64_t s : sizes) {
      TCX_CHECK(s >= 0 && s <= dim, ErrorKind::ShapeInference, "split size {} is out of range for an axis of size {}",
                s, dim);
      sum += s;
    }
    TCX_CHECK(sum == dim, ErrorKind::ShapeInference, "split sizes {} do not add up to the axis size {}",
              shapeToString(sizes), dim);
    return sizes;
  }
  const int64_t n = attrs.getInt("num_outputs", numOutputs);
  TCX_CHECK(n >= 1 && n == numOutputs, ErrorKind::InvalidModel, "num_outputs is {} but the node has {} outputs", n,
            numOutputs);
  const int64_t chunk = (dim + n - 1) / n;
  const int64_t last = dim - chunk * (n - 1);
  TCX_CHECK(last >= 0, ErrorKind::ShapeInference, "an axis of size {} cannot be split into {} chunks of {}", dim, n,
            chunk);
  std::vector<int64_t> sizes(n, chunk);
  sizes.back() = last;
  return sizes;
}

void inferSplit(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  const int64_t axis = dimensionAxis(ctx.attrs().getInt("axis", 0), data.rank());
  std::vector<int64_t> sizes = splitSizes(data.shape[axis], optionalValue(ctx, 1, "split"), ctx.attrs(),
                                          static_cast<int64_t>(ctx.numOutputs()));
  for (size_t i = 0; i < sizes.size(); ++i) {
    Shape out = data.shape;
    out[axis] = sizes[i];
    ctx.setOutputType(i, {data.dtype, out});
  }
}

// Output i views the input from where output i-1 ended.
void runSplit(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const int64_t axis = dimensionAxis(ctx.attrs().getInt("axis", 0), data.rank());
  StridedView view = contiguousView(data.shape());
  for (size_t i = 0; i < ctx.numOutputs(); ++i) {
    Tensor& out = ctx.output(i);
    view.shape = out.shape();
    copyView(view, data, out);
    view.offset += out.shape()[axis] * view.strides[axis];
  }
}

} // namespace

void registerConcatSplitOps(OpRegistry& registry) {
  registry.add({.name = "Concat",
                .opClass = OpClass::DataMovement,
                .minInputs = 1,
                .maxInputs = OpDef::kVariadic,
                .attributes = {{"axis", AttrKind::Int, true}},
                .infer = inferConcat,
                .kernel = runConcat,
                .movement = concatRule});
  registry.add({.name = "Split",
                .opClass = OpClass::DataMovement,
                .minInputs = 1,
                .maxInputs = 2,
                .minOutputs = 1,
                .maxOutputs = OpDef::kVariadic,
                .attributes = {{"axis", AttrKind::Int}, {"num_outputs", AttrKind::Int}},
                .infer = inferSplit,
                .kernel = runSplit,
                .movement = splitRule});
}

} // namespace tcx
