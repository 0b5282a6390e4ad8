// Dropout for inference: the identity, with an all-true mask. Training mode
// is accepted only where it changes nothing, with ratio 0.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <algorithm>
#include <cstring>

namespace tcx::elementwise {

namespace {

constexpr double kDefaultRatio = 0.5;

// Raises Unsupported when the node would drop elements: training_mode true
// and a ratio other than 0. Shape inference may not know the values yet; the
// kernel checks again with all of them known.
void checkNotTraining(const Tensor* trainingMode, bool ratioGiven, const Tensor* ratio) {
  if (!trainingMode || trainingMode->elementAsInt64(0) == 0) return;
  if (ratioGiven && !ratio) return;
  double r = ratio ? ratio->elementAsDouble(0) : kDefaultRatio;
  TCX_CHECK(r == 0, ErrorKind::Unsupported,
            "Dropout in training mode with ratio {} is not supported: tcx runs inference only", r);
}

void inferDropout(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  checkAccepts(Accepts::Float, data.dtype);
  if (ctx.hasInput(1)) {
    checkAccepts(Accepts::Float, ctx.inputType(1).dtype);
    checkSingleElement(ctx, 1, "ratio");
  }
  if (ctx.hasInput(2)) {
    checkAccepts(Accepts::Bool, ctx.inputType(2).dtype);
    checkSingleElement(ctx, 2, "training_mode");
  }
  checkNotTraining(ctx.inputValue(2), ctx.hasInput(1), ctx.inputValue(1));
  ctx.setOutputType(0, data);
  if (ctx.numOutputs() > 1) ctx.setOutputType(1, {DType::Bool, data.shape});
}

void dropoutKernel(KernelContext& ctx) {
  auto optional = [&](size_t i) { return ctx.hasInput(i) ? &ctx.input(i) : nullptr; };
  checkNotTraining(optional(2), ctx.hasInput(1), optional(1));
  const Tensor& data = ctx.input(0);
  std::memcpy(ctx.output(0).raw(), data.raw(), data.byteSize());
  if (ctx.numOutputs() > 1) std::ranges::fill(ctx.output(1).data<bool>(), true);
}

} // namespace

void registerDropoutOp(OpRegistry& registry) {
  OpDef def{.name = "Dropout",
            .opClass = OpClass::Elementwise,
            .minInputs = 1,
            .maxInputs = 3,
            .minOutputs = 1,
            .maxOutputs = 2,
            .attributes = {{"seed", AttrKind::Int}},
            .infer = inferDropout,
            .kernel = dropoutKernel,
            .flops = flopsPerOutputElement()};
  registry.add(std::move(def));
}

} // namespace tcx::elementwise
