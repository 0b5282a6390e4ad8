// Clip (optional min and max inputs) and Where (a three-way broadcast).

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <limits>

namespace tcx::elementwise {

namespace {

// An omitted bound is the type's extreme; for floats that is an infinity, so
// infinite inputs pass unchanged.
template <typename T> ComputeType<T> bound(const KernelContext& ctx, size_t i, bool upper) {
  using C = ComputeType<T>;
  if (ctx.hasInput(i)) return static_cast<C>(ctx.input(i).data<T>()[0]);
  using Limits = std::numeric_limits<C>;
  if constexpr (Limits::has_infinity)
    return upper ? Limits::infinity() : -Limits::infinity();
  else
    return upper ? Limits::max() : Limits::lowest();
}

OpDef clipOp() {
  OpDef def{.name = "Clip", .opClass = OpClass::Elementwise, .minInputs = 1, .maxInputs = 3};
  def.flops = flopsPerOutputElement();
  def.infer = [](InferContext& ctx) {
    const TensorType& x = ctx.inputType(0);
    checkAccepts(Accepts::Numeric, x.dtype);
    for (size_t i = 1; i < ctx.numInputs(); ++i) {
      if (!ctx.hasInput(i)) continue;
      checkSameDType(ctx, i, 0);
      checkSingleElement(ctx, i, i == 1 ? "min" : "max");
    }
    ctx.setOutputType(0, x);
  };
  def.kernel = [](KernelContext& ctx) {
    dispatchAccepted<Accepts::Numeric>(ctx.input(0).dtype(), [&]<typename T>() {
      using C = ComputeType<T>;
      C lo = bound<T>(ctx, 1, false), hi = bound<T>(ctx, 2, true);
      // Comparisons with NaN are false, so a NaN input stays NaN.
      mapElements<T, T>(ctx.output(0), {&ctx.input(0)}, [lo, hi](C x) {
        C y = x < lo ? lo : x;
        return y > hi ? hi : y;
      });
    });
  };
  return def;
}

OpDef whereOp() {
  OpDef def{.name = "Where", .opClass = OpClass::Elementwise, .minInputs = 3, .maxInputs = 3};
  def.fusionRole = FusionRole::Select;
  def.flops = flopsPerOutputElement();
  def.infer = [](InferContext& ctx) {
    const TensorType& condition = ctx.inputType(0);
    TCX_CHECK(condition.dtype == DType::Bool, ErrorKind::ShapeInference, "the condition must be bool, got {}",
              dtypeName(condition.dtype));
    checkSameDType(ctx, 2, 1);
    Shape shape = broadcastShapes(broadcastShapes(condition.shape, ctx.inputType(1).shape), ctx.inputType(2).shape);
    ctx.setOutputType(0, {ctx.inputType(1).dtype, std::move(shape)});
  };
  def.kernel = [](KernelContext& ctx) {
    dispatchDType(ctx.input(1).dtype(), [&]<typename T>() {
      mapElements<T, bool, T, T>(ctx.output(0), {&ctx.input(0), &ctx.input(1), &ctx.input(2)},
                                 [](bool c, auto x, auto y) { return c ? x : y; });
    });
  };
  return def;
}

} // namespace

void registerSelectOps(OpRegistry& registry) {
  registry.add(clipOp());
  registry.add(whereOp());
}

} // namespace tcx::elementwise
