// The Reduce* ops (opset 18 form: axes is an optional input). Each is one
// reducer run by the shared driver; only the reducer and dtypes differ.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/ReduceDriver.h"
#include "ops/reduction/Reducers.h"
#include "ops/reduction/ReductionOps.h"

namespace tcx::reduction {
namespace {

template <typename T> using ReduceSum = Reduction<T, Identity, Add, Keep>;
template <typename T> using ReduceMean = Reduction<T, Identity, Add, DivideByCount>;
template <typename T> using ReduceMax = Reduction<T, Identity, Max, Keep>;
template <typename T> using ReduceMin = Reduction<T, Identity, Min, Keep>;
template <typename T> using ReduceProd = Reduction<T, Identity, Multiply, Keep>;
template <typename T> using ReduceL1 = Reduction<T, Absolute, Add, Keep>;
template <typename T> using ReduceL2 = Reduction<T, Square, Add, SquareRoot>;
template <typename T> using ReduceSumSquare = Reduction<T, Square, Add, Keep>;
template <typename T> using ReduceLogSum = Reduction<T, Identity, Add, Logarithm>;

// With noop_with_empty_axes and no axes, each output element is the
// reduction of the one input element at its place: x for most ops, but |x|
// for ReduceL1, x*x for ReduceSumSquare and log(x) for ReduceLogSum, as the
// ONNX spec clarified (onnx/onnx#7394). The driver needs no special case.
template <template <typename> class R, DTypeSet S>
OpDef reduceOp(const char* name, FusionRole fusionRole = FusionRole::None) {
  OpDef def;
  def.name = name;
  def.opClass = OpClass::Reduction;
  def.fusionRole = fusionRole;
  def.flops = flopsPerInputElement(1); // each input element folded once
  def.minInputs = 1;
  def.maxInputs = 2;
  def.attributes = {{"keepdims", AttrKind::Int}, {"noop_with_empty_axes", AttrKind::Int}};
  def.infer = [](InferContext& ctx) {
    const TensorType& in = ctx.inputType(0);
    checkDType<S>(in.dtype);
    const Tensor* axes = ctx.hasInput(1) ? &ctx.requireInputValue(1, "axes") : nullptr;
    AxisMask mask = reduceAxesMask(axes, ctx.attrs(), in.rank());
    bool keepdims = ctx.attrs().getInt("keepdims", 1) != 0;
    ctx.setOutputType(0, {in.dtype, reducedShape(in.shape, mask, keepdims)});
  };
  def.kernel = [](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    AxisMask mask = reduceAxesMask(ctx.hasInput(1) ? &ctx.input(1) : nullptr, ctx.attrs(), in.rank());
    ReducePlan plan(in.shape(), mask);
    dispatchIn<S>(in.dtype(), [&]<typename T>() { reduce<R<T>, T>(in, plan, ctx.output(0)); });
  };
  return def;
}

} // namespace

void registerReduceOps(OpRegistry& registry) {
  registry.add(reduceOp<ReduceSum, DTypeSet::Numeric>("ReduceSum", FusionRole::SumReduction));
  registry.add(reduceOp<ReduceMean, DTypeSet::Numeric>("ReduceMean"));
  registry.add(reduceOp<ReduceMax, DTypeSet::NumericOrBool>("ReduceMax", FusionRole::MaxReduction));
  registry.add(reduceOp<ReduceMin, DTypeSet::NumericOrBool>("ReduceMin"));
  registry.add(reduceOp<ReduceProd, DTypeSet::Numeric>("ReduceProd"));
  registry.add(reduceOp<ReduceL1, DTypeSet::Numeric>("ReduceL1"));
  registry.add(reduceOp<ReduceL2, DTypeSet::Float>("ReduceL2"));
  registry.add(reduceOp<ReduceSumSquare, DTypeSet::Numeric>("ReduceSumSquare"));
  registry.add(reduceOp<ReduceLogSum, DTypeSet::Float>("ReduceLogSum"));
  registry.add(reduceOp<LogSumExp, DTypeSet::Float>("ReduceLogSumExp"));
}

} // namespace tcx::reduction
