// MaxPool: the largest input under each window, ignoring taps in the
// padding, and optionally where it was (Indices: the offset into X, with the
// spatial part in row-major or, for storage_order 1, column-major order).

#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Pooling.h"

#include <limits>

namespace tcx::nn {

namespace {

using MaxPoolTypes = DTypes<float, Half, BFloat16, double, int8_t, uint8_t>;

void inferMaxPool(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  MaxPoolTypes::check(x.dtype, "X");
  columnMajorIndices(ctx.attrs());
  const PoolPlan p = planPool(x.shape, ctx.attrs());
  ctx.setOutputType(0, {x.dtype, p.output});
  if (ctx.numOutputs() > 1) ctx.setOutputType(1, {DType::I64, p.output});
}

template <typename T> void runMaxPool(KernelContext& ctx) {
  using C = ComputeType<T>;
  const PoolPlan p = planPool(ctx.input(0).shape(), ctx.attrs());
  const bool columnMajor = columnMajorIndices(ctx.attrs());
  const T* x = ctx.input(0).data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  int64_t* indices = ctx.numOutputs() > 1 ? ctx.output(1).data<int64_t>().data() : nullptr;
  const Dims3& in = p.inputSize;
  const int64_t inVolume = volume(in);
  constexpr C kNone =
      std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest();
  forEachWindow(p, [&](int64_t plane, int64_t o, const std::array<TapRange, 3>& w) {
    const T* src = x + plane * inVolume;
    C best = kNone;
    int64_t at[3] = {-1, 0, 0};
    for (int64_t kd = w[0].first; kd < w[0].last; ++kd) {
      const int64_t id = w[0].start + kd * p.dilations[0];
      for (int64_t kh = w[1].first; kh < w[1].last; ++kh) {
        const int64_t ih = w[1].start + kh * p.dilations[1];
        const T* row = src + (id * in[1] + ih) * in[2];
        for (int64_t kw = w[2].first; kw < w[2].last; ++kw) {
          const int64_t iw = w[2].start + kw * p.dilations[2];
          const C v = static_cast<C>(row[iw]);
          if (v > best || at[0] < 0) {
            best = v;
            at[0] = id;
            at[1] = ih;
            at[2] = iw;
          }
        }
      }
    }
    y[o] = static_cast<T>(best);
    if (indices) {
      const int64_t offset =
          columnMajor ? at[0] + in[0] * (at[1] + in[1] * at[2]) : (at[0] * in[1] + at[1]) * in[2] + at[2];
      indices[o] = at[0] < 0 ? -1 : plane * inVolume + offset;
    }
  });
}

} // namespace

bool columnMajorIndices(const AttrMap& attrs) {
  const int64_t order = attrs.getInt("storage_order", 0);
  TCX_CHECK(order == 0 || order == 1, ErrorKind::InvalidModel, "storage_order must be 0 or 1, got {}", order);
  return order == 1;
}

OpDef maxPoolOp() {
  OpDef def;
  def.name = "MaxPool";
  def.opClass = OpClass::Pooling;
  def.flops = poolFlops;
  def.maxOutputs = 2;
  def.attributes = poolAttrSpecs();
  def.attributes.push_back({"storage_order", AttrKind::Int});
  def.infer = inferMaxPool;
  def.kernel = [](KernelContext& ctx) {
    MaxPoolTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runMaxPool<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
