#include "ops/elementwise/Builders.h"

namespace tcx::elementwise {

void checkAccepts(Accepts accepts, DType t) {
  switch (accepts) {
  case Accepts::Float:
    TCX_CHECK(isFloatingPoint(t), ErrorKind::Unsupported, "dtype {} is not supported: expected a floating-point type",
              dtypeName(t));
    return;
  case Accepts::Numeric:
    TCX_CHECK(t != DType::Bool, ErrorKind::Unsupported, "dtype bool is not supported: expected a numeric type");
    return;
  case Accepts::Bool:
    TCX_CHECK(t == DType::Bool, ErrorKind::Unsupported, "dtype {} is not supported: expected bool", dtypeName(t));
    return;
  case Accepts::Any: return;
  }
}

void checkSameDType(const InferContext& ctx, size_t i, size_t j) {
  DType a = ctx.inputType(i).dtype, b = ctx.inputType(j).dtype;
  TCX_CHECK(a == b, ErrorKind::ShapeInference, "input {} is {} but input {} is {}", i, dtypeName(a), j, dtypeName(b));
}

void checkSingleElement(const InferContext& ctx, size_t i, const char* what) {
  const TensorType& t = ctx.inputType(i);
  TCX_CHECK(t.numElements() == 1, ErrorKind::ShapeInference, "input {} ({}) must hold one element, got {}", i, what,
            t.toString());
}

void inferBroadcast(InferContext& ctx, Accepts accepts, Yields yields) {
  const TensorType& first = ctx.inputType(0);
  checkAccepts(accepts, first.dtype);
  Shape shape = first.shape;
  for (size_t i = 1; i < ctx.numInputs(); ++i) {
    checkSameDType(ctx, i, 0);
    shape = broadcastShapes(shape, ctx.inputType(i).shape);
  }
  ctx.setOutputType(0, {yields == Yields::Bool ? DType::Bool : first.dtype, std::move(shape)});
}

} // namespace tcx::elementwise
