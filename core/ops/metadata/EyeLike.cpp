// EyeLike: a 2-D tensor of the input's shape with ones on the k-th diagonal.

#include "ir/Dispatch.h"
#include "ops/OpRegistry.h"
#include "ops/metadata/MetadataOps.h"

#include <algorithm>
#include <limits>

namespace tcx::metadata {

// Past these bounds the diagonal misses the matrix; clamping keeps i + k
// from overflowing.
int64_t eyeDiagonal(const AttrMap& attrs, int64_t rows, int64_t cols) {
  return std::clamp<int64_t>(attrs.getInt("k", 0), -rows, cols);
}

namespace {

DType eyeDType(const InferContext& ctx) {
  if (!ctx.attrs().has("dtype")) return ctx.inputType(0).dtype;
  int64_t code = ctx.attrs().getInt("dtype");
  std::optional<DType> dtype;
  if (code >= 0 && code <= std::numeric_limits<int32_t>::max()) dtype = dtypeFromOnnx(static_cast<int32_t>(code));
  TCX_CHECK(dtype.has_value(), ErrorKind::Unsupported, "ONNX element type {} is not supported", code);
  return *dtype;
}

void inferEyeLike(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  TCX_CHECK(x.rank() == 2, ErrorKind::ShapeInference, "EyeLike needs a 2-D input, got {}", x.toString());
  ctx.setOutputType(0, {eyeDType(ctx), x.shape});
}

void eyeLikeKernel(KernelContext& ctx) {
  Tensor& y = ctx.output(0);
  const int64_t rows = y.shape()[0], cols = y.shape()[1];
  const int64_t k = eyeDiagonal(ctx.attrs(), rows, cols);
  dispatchDType(y.dtype(), [&]<typename T>() {
    std::span<T> out = y.data<T>();
    std::ranges::fill(out, T{});
    const T one = static_cast<T>(ComputeType<T>(1));
    for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i) out[i * cols + i + k] = one;
  });
}

} // namespace

void registerEyeLikeOp(OpRegistry& registry) {
  OpDef def{.name = "EyeLike",
            .opClass = OpClass::Metadata,
            .attributes = {{"dtype", AttrKind::Int}, {"k", AttrKind::Int}},
            .infer = inferEyeLike,
            .kernel = eyeLikeKernel};
  registry.add(std::move(def));
}

} // namespace tcx::metadata
