// The gather ops read data at positions given by an index operand: Gather
// (whole slices along an axis), GatherElements (single elements along an
// axis) and GatherND (blocks addressed by index tuples). Elements are copied
// as words of the dtype's size; contiguous blocks go through memcpy.

#include "ops/OpRegistry.h"
#include "ops/movement/Indexing.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Operands.h"
#include "ops/movement/StridedCopy.h"

#include <algorithm>

namespace tcx {

namespace {

// Gather views data as [outer, axis, inner] and the output as [outer, index,
// inner]: output (o, j, i) reads data (o, indices[j], i).
struct GatherLayout {
  int64_t outer;
  int64_t axisSize;
  int64_t inner;
  Shape outShape;

  GatherLayout(const Shape& data, const Shape& indices, int64_t axisAttr) {
    const int64_t axis = dimensionAxis(axisAttr, static_cast<int64_t>(data.size()));
    outer = numElements(Shape(data.begin(), data.begin() + axis));
    axisSize = data[axis];
    inner = numElements(Shape(data.begin() + axis + 1, data.end()));
    outShape.assign(data.begin(), data.begin() + axis);
    outShape.insert(outShape.end(), indices.begin(), indices.end());
    outShape.insert(outShape.end(), data.begin() + axis + 1, data.end());
  }
};

void inferGather(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  checkIndexType(ctx.inputType(1));
  ctx.setOutputType(0, {data.dtype, GatherLayout(data.shape, ctx.inputType(1).shape,
                                                 ctx.attrs().getInt("axis", 0)).outShape});
}

void runGather(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const GatherLayout layout(data.shape(), indices.shape(), ctx.attrs().getInt("axis", 0));
  dispatchElementSize(dtypeSize(data.dtype()), [&]<typename U>() {
    const U* src = reinterpret_cast<const U*>(data.raw());
    U* dst = reinterpret_cast<U*>(ctx.output(0).raw());
    withIndices(indices, [&](auto idx) {
      const int64_t m = static_cast<int64_t>(idx.size());
      for (int64_t o = 0; o < layout.outer; ++o)
        for (int64_t j = 0; j < m; ++j) {
          const int64_t i = wrapIndex(idx[j], layout.axisSize);
          std::copy_n(src + (o * layout.axisSize + i) * layout.inner, layout.inner,
                      dst + (o * m + j) * layout.inner);
        }
    });
  });
}

void inferGatherElements(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  const TensorType& indices = ctx.inputType(1);
  checkIndexType(indices);
  AxisAddressing(data.shape, indices.shape, ctx.attrs().getInt("axis", 0)); // checks the shapes
  ctx.setOutputType(0, {data.dtype, indices.shape});
}

void runGatherElements(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const AxisAddressing addressing(data.shape(), indices.shape(), ctx.attrs().getInt("axis", 0));
  dispatchElementSize(dtypeSize(data.dtype()), [&]<typename U>() {
    const U* src = reinterpret_cast<const U*>(data.raw());
    U* dst = reinterpret_cast<U*>(ctx.output(0).raw());
    withIndices(indices, [&](auto idx) {
      addressing.forEach(idx, [&](int64_t dataOffset, int64_t indexOffset) { dst[indexOffset] = src[dataOffset]; });
    });
  });
}

void inferGatherND(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  checkIndexType(ctx.inputType(1));
  TupleAddressing addressing(data.shape, ctx.inputType(1).shape, ctx.attrs().getInt("batch_dims", 0));
  ctx.setOutputType(0, {data.dtype, addressing.blocksShape()});
}

void runGatherND(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const TupleAddressing addressing(data.shape(), indices.shape(), ctx.attrs().getInt("batch_dims", 0));
  const int64_t block = addressing.blockSize();
  dispatchElementSize(dtypeSize(data.dtype()), [&]<typename U>() {
    const U* src = reinterpret_cast<const U*>(data.raw());
    U* dst = reinterpret_cast<U*>(ctx.output(0).raw());
    withIndices(indices, [&](auto idx) {
      for (int64_t t = 0; t < addressing.numTuples(); ++t)
        std::copy_n(src + addressing.dataOffset(idx, t), block, dst + t * block);
    });
  });
}

} // namespace

void registerGatherOps(OpRegistry& registry) {
  registry.add({.name = "Gather",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .attributes = {{"axis", AttrKind::Int}},
                .infer = inferGather,
                .kernel = runGather,
                .movement = gatherRule});
  registry.add({.name = "GatherElements",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .attributes = {{"axis", AttrKind::Int}},
                .infer = inferGatherElements,
                .kernel = runGatherElements});
  registry.add({.name = "GatherND",
                .opClass = OpClass::DataMovement,
                .minInputs = 2,
                .maxInputs = 2,
                .attributes = {{"batch_dims", AttrKind::Int}},
                .infer = inferGatherND,
                .kernel = runGatherND});
}

} // namespace tcx
