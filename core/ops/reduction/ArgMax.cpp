// ArgMax, ArgMin and Hardmax: the ops built on the position of the extreme
// element along one axis.

#include "ops/Flops.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/Common.h"
#include "ops/reduction/ReducePlan.h"
#include "ops/reduction/ReductionOps.h"

#include <functional>
#include <vector>

namespace tcx::reduction {
namespace {

// For each column j of the [n, inner] block at x, sets index[j] to the
// position of the element that Better ranks first: the first such element,
// or the last on ties with selectLast. The columns are scanned side by side
// so that the inner loop reads memory contiguously; best[] is scratch. An
// empty block (n = 0) has no extreme and leaves index[] alone.
template <typename T, typename Better>
void argExtreme(const T* x, int64_t n, int64_t inner, bool selectLast, ComputeType<T>* best, int64_t* index) {
  using C = ComputeType<T>;
  if (n == 0) return;
  for (int64_t j = 0; j < inner; ++j) {
    best[j] = static_cast<C>(x[j]);
    index[j] = 0;
  }
  for (int64_t k = 1; k < n; ++k) {
    const T* row = x + k * inner;
    for (int64_t j = 0; j < inner; ++j) {
      C v = static_cast<C>(row[j]);
      if (Better()(v, best[j]) || (selectLast && v == best[j])) {
        best[j] = v;
        index[j] = k;
      }
    }
  }
}

template <typename Better> OpDef argOp(const char* name) {
  OpDef def;
  def.name = name;
  def.opClass = OpClass::Reduction;
  def.attributes = {{"axis", AttrKind::Int}, {"keepdims", AttrKind::Int}, {"select_last_index", AttrKind::Int}};
  def.flops = flopsPerInputElement(1); // one comparison per element
  def.infer = [](InferContext& ctx) {
    const TensorType& in = ctx.inputType(0);
    checkDType<DTypeSet::Numeric>(in.dtype);
    int64_t axis = checkedAxis(ctx.attrs().getInt("axis", 0), in.rank());
    AxisMask mask(in.rank(), false);
    mask[axis] = true;
    Shape out = reducedShape(in.shape, mask, ctx.attrs().getInt("keepdims", 1) != 0);
    TCX_CHECK(in.shape[axis] > 0 || numElements(out) == 0, ErrorKind::ShapeInference,
              "axis {} of {} is empty, so it has no extreme element", axis, in.toString());
    ctx.setOutputType(0, {DType::I64, out});
  };
  def.kernel = [](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    AxisSplit split(in.shape(), checkedAxis(ctx.attrs().getInt("axis", 0), in.rank()));
    bool selectLast = ctx.attrs().getInt("select_last_index", 0) != 0;
    int64_t* y = ctx.output(0).data<int64_t>().data();
    dispatchIn<DTypeSet::Numeric>(in.dtype(), [&]<typename T>() {
      const T* x = in.data<T>().data();
      std::vector<ComputeType<T>> best(split.inner);
      for (int64_t o = 0; o < split.outer; ++o)
        argExtreme<T, Better>(x + o * split.n * split.inner, split.n, split.inner, selectLast, best.data(),
                              y + o * split.inner);
    });
  };
  return def;
}

// The one-hot form of ArgMax (first index on ties) along `axis`.
OpDef hardmaxOp() {
  OpDef def;
  def.name = "Hardmax";
  def.opClass = OpClass::Reduction;
  def.flops = flopsPerInputElement(1); // one comparison per element
  def.attributes = {{"axis", AttrKind::Int}};
  def.infer = inferAlongAxis;
  def.kernel = [](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    AxisSplit split(in.shape(), checkedAxis(ctx.attrs().getInt("axis", -1), in.rank()));
    dispatchIn<DTypeSet::Float>(in.dtype(), [&]<typename T>() {
      const T* x = in.data<T>().data();
      T* y = ctx.output(0).data<T>().data();
      std::vector<ComputeType<T>> best(split.inner);
      std::vector<int64_t> index(split.inner);
      const int64_t block = split.n * split.inner;
      for (int64_t o = 0; o < split.outer; ++o, x += block, y += block) {
        argExtreme<T, std::greater<>>(x, split.n, split.inner, false, best.data(), index.data());
        for (int64_t k = 0; k < split.n; ++k)
          for (int64_t j = 0; j < split.inner; ++j)
            y[k * split.inner + j] = static_cast<T>(k == index[j] ? 1.0f : 0.0f);
      }
    });
  };
  return def;
}

} // namespace

void registerArgMaxOps(OpRegistry& registry) {
  registry.add(argOp<std::greater<>>("ArgMax"));
  registry.add(argOp<std::less<>>("ArgMin"));
  registry.add(hardmaxOp());
}

} // namespace tcx::reduction
