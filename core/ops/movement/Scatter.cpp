// The scatter ops: the output is a copy of data with the updates written
// (or, with a reduction, combined) at positions given by an index operand.
// ScatterElements addresses single elements along an axis, ScatterND blocks
// by index tuples. Duplicate indices apply in index order.

#include "ir/Dispatch.h"
#include "ops/OpRegistry.h"
#include "ops/movement/Indexing.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/ScatterReduction.h"
#include "ops/movement/StridedCopy.h"

#include <algorithm>

namespace tcx {

Reduction scatterReduction(const AttrMap& attrs) {
  std::string reduction = attrs.getString("reduction", "none");
  if (reduction == "none") return Reduction::None;
  if (reduction == "add") return Reduction::Add;
  if (reduction == "mul") return Reduction::Mul;
  if (reduction == "max") return Reduction::Max;
  if (reduction == "min") return Reduction::Min;
  raise(ErrorKind::InvalidModel, "unknown reduction '{}'", reduction);
}

namespace {

// Calls f.template operator()<T>(combine), where combine(T& into, T update)
// applies the reduction. Without one T is the word of the dtype's size: the
// op then only moves elements. Bool reduces like numpy (add is or, mul is
// and).
template <typename F> void dispatchReduction(DType dtype, Reduction reduction, F&& f) {
  if (reduction == Reduction::None) {
    dispatchElementSize(dtypeSize(dtype), [&]<typename U>() {
      f.template operator()<U>([](U& into, U update) { into = update; });
    });
    return;
  }
  dispatchDType(dtype, [&]<typename T>() {
    using C = ComputeType<T>;
    switch (reduction) {
    case Reduction::Add: return f.template operator()<T>([](T& into, T u) { into = T(C(into) + C(u)); });
    case Reduction::Mul: return f.template operator()<T>([](T& into, T u) { into = T(C(into) * C(u)); });
    case Reduction::Max: return f.template operator()<T>([](T& into, T u) { into = T(std::max(C(into), C(u))); });
    case Reduction::Min: return f.template operator()<T>([](T& into, T u) { into = T(std::min(C(into), C(u))); });
    case Reduction::None: break;
    }
  });
}

void checkScatterOperands(const TensorType& data, const TensorType& indices, const TensorType& updates) {
  checkIndexType(indices);
  TCX_CHECK(updates.dtype == data.dtype, ErrorKind::ShapeInference, "updates are {} but data is {}",
            updates.toString(), data.toString());
}

void inferScatterElements(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  const TensorType& indices = ctx.inputType(1);
  const TensorType& updates = ctx.inputType(2);
  checkScatterOperands(data, indices, updates);
  AxisAddressing(data.shape, indices.shape, ctx.attrs().getInt("axis", 0)); // checks the shapes
  TCX_CHECK(updates.shape == indices.shape, ErrorKind::ShapeInference,
            "updates {} and indices {} differ in shape", updates.toString(), indices.toString());
  scatterReduction(ctx.attrs());
  ctx.setOutputType(0, data);
}

void runScatterElements(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  Tensor& out = ctx.output(0);
  const AxisAddressing addressing(data.shape(), indices.shape(), ctx.attrs().getInt("axis", 0));
  copyAllElements(data, out);
  dispatchReduction(data.dtype(), scatterReduction(ctx.attrs()), [&]<typename T>(auto combine) {
    T* dst = reinterpret_cast<T*>(out.raw());
    const T* src = reinterpret_cast<const T*>(updates.raw());
    withIndices(indices, [&](auto idx) {
      addressing.forEach(idx, [&](int64_t dataOffset, int64_t indexOffset) {
        combine(dst[dataOffset], src[indexOffset]);
      });
    });
  });
}

void inferScatterND(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  const TensorType& indices = ctx.inputType(1);
  const TensorType& updates = ctx.inputType(2);
  checkScatterOperands(data, indices, updates);
  TupleAddressing addressing(data.shape, indices.shape, 0);
  TCX_CHECK(updates.shape == addressing.blocksShape(), ErrorKind::ShapeInference,
            "updates {} should be of shape {} for data {} and indices {}", updates.toString(),
            shapeToString(addressing.blocksShape()), data.toString(), indices.toString());
  scatterReduction(ctx.attrs());
  ctx.setOutputType(0, data);
}

void runScatterND(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  Tensor& out = ctx.output(0);
  const TupleAddressing addressing(data.shape(), indices.shape(), 0);
  const int64_t block = addressing.blockSize();
  copyAllElements(data, out);
  dispatchReduction(data.dtype(), scatterReduction(ctx.attrs()), [&]<typename T>(auto combine) {
    T* dst = reinterpret_cast<T*>(out.raw());
    const T* src = reinterpret_cast<const T*>(updates.raw());
    withIndices(indices, [&](auto idx) {
      for (int64_t t = 0; t < addressing.numTuples(); ++t) {
        T* into = dst + addressing.dataOffset(idx, t);
        for (int64_t e = 0; e < block; ++e) combine(into[e], src[t * block + e]);
      }
    });
  });
}

} // namespace

void registerScatterOps(OpRegistry& registry) {
  registry.add({.name = "ScatterElements",
                .opClass = OpClass::DataMovement,
                .minInputs = 3,
                .maxInputs = 3,
                .attributes = {{"axis", AttrKind::Int}, {"reduction", AttrKind::String}},
                .infer = inferScatterElements,
                .kernel = runScatterElements,
                .inPlaceOperand = 0});
  registry.add({.name = "ScatterND",
                .opClass = OpClass::DataMovement,
                .minInputs = 3,
                .maxInputs = 3,
                .attributes = {{"reduction", AttrKind::String}},
                .infer = inferScatterND,
                .kernel = runScatterND,
                .movement = scatterNDRule,
                .inPlaceOperand = 0});
}

} // namespace tcx
