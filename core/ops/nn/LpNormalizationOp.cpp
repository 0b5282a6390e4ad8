// LpNormalization: X divided by its L1 or L2 norm along one axis.

#include "ops/Flops.h"
#include "ops/nn/Common.h"
#include "ops/nn/Normalization.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

#include <cmath>

namespace tcx::nn {

AxisView axisView(const Shape& x, const AttrMap& attrs) {
  const int64_t rank = static_cast<int64_t>(x.size());
  TCX_CHECK(rank >= 1, ErrorKind::ShapeInference, "input must not be a scalar");
  int64_t axis = attrs.getInt("axis", -1);
  TCX_CHECK(axis >= -rank && axis < rank, ErrorKind::ShapeInference, "axis {} is out of range for rank {}", axis, rank);
  if (axis < 0) axis += rank;
  AxisView v;
  v.axis = axis;
  for (int64_t i = 0; i < rank; ++i) (i < axis ? v.outer : i == axis ? v.n : v.inner) *= x[i];
  return v;
}

int64_t normOrder(const AttrMap& attrs) {
  const int64_t p = attrs.getInt("p", 2);
  TCX_CHECK(p == 1 || p == 2, ErrorKind::InvalidModel, "p must be 1 or 2, got {}", p);
  return p;
}

namespace {

void inferLpNorm(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "input");
  axisView(x.shape, ctx.attrs());
  normOrder(ctx.attrs());
  ctx.setOutputType(0, x);
}

template <typename T> void runLpNorm(KernelContext& ctx) {
  using C = ComputeType<T>;
  const AxisView v = axisView(ctx.input(0).shape(), ctx.attrs());
  const bool l1 = normOrder(ctx.attrs()) == 1;
  const T* x = ctx.input(0).data<T>().data();
  T* y = ctx.output(0).data<T>().data();
  parallelFor(v.outer * v.inner, 3.0 * static_cast<double>(v.n), [&](int64_t begin, int64_t end) {
    for (int64_t line = begin; line < end; ++line) {
      const int64_t base = line / v.inner * v.n * v.inner + line % v.inner;
      C norm = 0;
      for (int64_t k = 0; k < v.n; ++k) {
        const C e = static_cast<C>(x[base + k * v.inner]);
        norm += l1 ? std::abs(e) : e * e;
      }
      if (!l1) norm = std::sqrt(norm);
      for (int64_t k = 0; k < v.n; ++k)
        y[base + k * v.inner] = static_cast<T>(static_cast<C>(x[base + k * v.inner]) / norm);
    }
  });
}

} // namespace

OpDef lpNormalizationOp() {
  OpDef def;
  def.name = "LpNormalization";
  def.opClass = OpClass::Normalization;
  // Per element: |x| or x^2 and its sum, then the division by the norm.
  def.flops = flopsPerInputElement(3);
  def.attributes = {{"axis", AttrKind::Int}, {"p", AttrKind::Int}};
  def.infer = inferLpNorm;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runLpNorm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
