// Range: start, start + delta, ... up to (excluding) limit, of
// max(ceil((limit - start) / delta), 0) elements. The length depends on the
// operands' values, so shape inference needs them.

#include "ir/Dispatch.h"
#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/metadata/MetadataOps.h"

#include <cmath>
#include <limits>

namespace tcx::metadata {

namespace {

constexpr const char* kOperandNames[] = {"start", "limit", "delta"};

int64_t floatRangeLength(double start, double limit, double delta) {
  double n = std::ceil((limit - start) / delta);
  TCX_CHECK(!(n >= static_cast<double>(std::numeric_limits<int64_t>::max())), ErrorKind::ShapeInference,
            "Range from {} to {} by {} is too long", start, limit, delta);
  return n > 0 ? static_cast<int64_t>(n) : 0; // NaN (from infinite bounds) gives 0 too
}

int64_t integerRangeLength(int64_t start, int64_t limit, int64_t delta) {
  int64_t span;
  TCX_CHECK(!__builtin_sub_overflow(limit, start, &span), ErrorKind::ShapeInference,
            "Range from {} to {} is too long", start, limit);
  int64_t n = span / delta;
  if (span % delta != 0 && (span > 0) == (delta > 0)) ++n; // round the quotient up, not toward zero
  return std::max<int64_t>(n, 0);
}

int64_t rangeLength(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  TCX_CHECK(delta.elementAsDouble(0) != 0, ErrorKind::InvalidModel, "Range's delta must not be zero");
  if (isFloatingPoint(start.dtype()))
    return floatRangeLength(start.elementAsDouble(0), limit.elementAsDouble(0), delta.elementAsDouble(0));
  return integerRangeLength(start.elementAsInt64(0), limit.elementAsInt64(0), delta.elementAsInt64(0));
}

void inferRange(InferContext& ctx) {
  const DType dtype = ctx.inputType(0).dtype;
  TCX_CHECK(dtype != DType::Bool, ErrorKind::Unsupported, "Range of bool is not supported");
  for (size_t i = 0; i < 3; ++i) {
    const TensorType& t = ctx.inputType(i);
    TCX_CHECK(t.dtype == dtype, ErrorKind::ShapeInference, "{} is {} but start is {}", kOperandNames[i],
              dtypeName(t.dtype), dtypeName(dtype));
    TCX_CHECK(t.numElements() == 1, ErrorKind::ShapeInference, "{} must be a scalar, got {}", kOperandNames[i],
              t.toString());
  }
  int64_t n = rangeLength(ctx.requireInputValue(0, "start"), ctx.requireInputValue(1, "limit"),
                          ctx.requireInputValue(2, "delta"));
  ctx.setOutputType(0, {dtype, {n}});
}

void rangeKernel(KernelContext& ctx) {
  dispatchNumeric(ctx.input(0).dtype(), [&]<typename T>() {
    using C = ComputeType<T>;
    const C start = static_cast<C>(ctx.input(0).data<T>()[0]);
    const C delta = static_cast<C>(ctx.input(2).data<T>()[0]);
    std::span<T> out = ctx.output(0).data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<T>(static_cast<C>(start + static_cast<C>(i) * delta));
  });
}

} // namespace

void registerRangeOp(OpRegistry& registry) {
  OpDef def{.name = "Range",
            .opClass = OpClass::Metadata,
            .minInputs = 3,
            .maxInputs = 3,
            .infer = inferRange,
            .kernel = rangeKernel,
            .flops = flopsPerOutputElement(2)}; // start + i * delta
  registry.add(std::move(def));
}

} // namespace tcx::metadata
