// Cast and CastLike between all tcx dtypes. The conversion of each element is
// castValue's (Map.h). `saturate` only affects float8 targets, which tcx does
// not support, so it is accepted and has no effect.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/elementwise/Builders.h"
#include "ops/elementwise/ElementwiseOps.h"

#include <cstring>
#include <limits>

namespace tcx::elementwise {

namespace {

DType castTarget(const AttrMap& attrs) {
  int64_t code = attrs.getInt("to");
  std::optional<DType> dtype;
  if (code >= 0 && code <= std::numeric_limits<int32_t>::max()) dtype = dtypeFromOnnx(static_cast<int32_t>(code));
  TCX_CHECK(dtype.has_value(), ErrorKind::Unsupported, "cast to ONNX element type {} is not supported", code);
  return *dtype;
}

void castKernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  Tensor& out = ctx.output(0);
  if (in.dtype() == out.dtype()) {
    std::memcpy(out.raw(), in.raw(), in.byteSize());
    return;
  }
  dispatchDType(in.dtype(), [&]<typename From>() {
    dispatchDType(out.dtype(), [&]<typename To>() { mapElements<To, From>(out, {&in}, [](auto v) { return v; }); });
  });
}

} // namespace

void registerCastOps(OpRegistry& registry) {
  OpDef cast{.name = "Cast",
             .opClass = OpClass::Elementwise,
             .attributes = {{"to", AttrKind::Int, true}, {"saturate", AttrKind::Int}}};
  cast.infer = [](InferContext& ctx) { ctx.setOutputType(0, {castTarget(ctx.attrs()), ctx.inputType(0).shape}); };
  cast.kernel = castKernel;
  cast.fusionRole = FusionRole::TypeConversion;
  cast.flops = flopsPerOutputElement();
  registry.add(std::move(cast));

  OpDef castLike{.name = "CastLike",
                 .opClass = OpClass::Elementwise,
                 .minInputs = 2,
                 .maxInputs = 2,
                 .attributes = {{"saturate", AttrKind::Int}}};
  castLike.infer = [](InferContext& ctx) {
    ctx.setOutputType(0, {ctx.inputType(1).dtype, ctx.inputType(0).shape});
  };
  castLike.kernel = castKernel;
  castLike.flops = flopsPerOutputElement();
  registry.add(std::move(castLike));
}

} // namespace tcx::elementwise
