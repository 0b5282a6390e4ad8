// GlobalAveragePool and GlobalMaxPool: one value per (image, channel) plane,
// the spatial dimensions kept with size 1.

#include "ops/Flops.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Parallel.h"

#include <algorithm>
#include <limits>

namespace tcx::nn {

namespace {

enum class GlobalPool { Average, Max };

void inferGlobalPool(InferContext& ctx) {
  const TensorType& x = ctx.inputType(0);
  FloatTypes::check(x.dtype, "X");
  TCX_CHECK(x.rank() >= 2, ErrorKind::ShapeInference, "X must have shape [N, C, spatial...], got {}",
            shapeToString(x.shape));
  Shape y(x.shape.size(), 1);
  y[0] = x.shape[0];
  y[1] = x.shape[1];
  ctx.setOutputType(0, {x.dtype, y});
}

template <GlobalPool Kind, typename T> void runGlobalPool(const Tensor& input, Tensor& output) {
  using C = ComputeType<T>;
  const int64_t planes = input.shape()[0] * input.shape()[1];
  const int64_t size = numElements({input.shape().begin() + 2, input.shape().end()});
  const T* x = input.data<T>().data();
  T* y = output.data<T>().data();
  parallelFor(planes, static_cast<double>(size), [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const T* src = x + plane * size;
      C r = Kind == GlobalPool::Max ? -std::numeric_limits<C>::infinity() : C(0);
      for (int64_t i = 0; i < size; ++i) {
        const C v = static_cast<C>(src[i]);
        r = Kind == GlobalPool::Max ? std::max(r, v) : r + v;
      }
      y[plane] = static_cast<T>(Kind == GlobalPool::Max ? r : r / static_cast<C>(size));
    }
  });
}

template <GlobalPool Kind> OpDef globalPoolOp(const char* name) {
  OpDef def;
  def.name = name;
  def.opClass = OpClass::Pooling;
  def.flops = flopsPerInputElement(1); // every input element folded once
  def.infer = inferGlobalPool;
  def.kernel = [](KernelContext& ctx) {
    FloatTypes::dispatch(ctx.input(0).dtype(),
                         [&]<typename T>() { runGlobalPool<Kind, T>(ctx.input(0), ctx.output(0)); });
  };
  return def;
}

} // namespace

OpDef globalAveragePoolOp() { return globalPoolOp<GlobalPool::Average>("GlobalAveragePool"); }
OpDef globalMaxPoolOp() { return globalPoolOp<GlobalPool::Max>("GlobalMaxPool"); }

} // namespace tcx::nn
