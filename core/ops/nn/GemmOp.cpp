// Gemm: Y = alpha * A' * B' + beta * C, where A' and B' are A and B or their
// transposes and C broadcasts to Y (unidirectionally). The transposes are
// just swapped strides for the GEMM core.

#include "ir/Graph.h"
#include "ops/StridedLoop.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"

#include <cmath>

namespace tcx::nn {

namespace {

struct GemmDims {
  GemmShape gemm;
  bool transA = false;
  bool transB = false;
};

GemmDims gemmDims(const Shape& a, const Shape& b, const AttrMap& attrs) {
  TCX_CHECK(a.size() == 2 && b.size() == 2, ErrorKind::ShapeInference, "A and B must be matrices, got {} and {}",
            shapeToString(a), shapeToString(b));
  GemmDims d;
  d.transA = attrs.getInt("transA", 0) != 0;
  d.transB = attrs.getInt("transB", 0) != 0;
  d.gemm.m = d.transA ? a[1] : a[0];
  d.gemm.k = d.transA ? a[0] : a[1];
  const int64_t kB = d.transB ? b[1] : b[0];
  d.gemm.n = d.transB ? b[0] : b[1];
  TCX_CHECK(d.gemm.k == kB, ErrorKind::ShapeInference, "inner dimensions differ: A' is {}x{}, B' is {}x{}", d.gemm.m,
            d.gemm.k, kB, d.gemm.n);
  return d;
}

void inferGemm(InferContext& ctx) {
  const TensorType& a = ctx.inputType(0);
  const TensorType& b = ctx.inputType(1);
  ContractionTypes::check(a.dtype, "A");
  TCX_CHECK(b.dtype == a.dtype, ErrorKind::ShapeInference, "B is {} but A is {}", dtypeName(b.dtype),
            dtypeName(a.dtype));
  const GemmDims d = gemmDims(a.shape, b.shape, ctx.attrs());
  const Shape y{d.gemm.m, d.gemm.n};
  if (ctx.hasInput(2)) {
    const TensorType& c = ctx.inputType(2);
    TCX_CHECK(c.dtype == a.dtype, ErrorKind::ShapeInference, "C is {} but A is {}", dtypeName(c.dtype),
              dtypeName(a.dtype));
    TCX_CHECK(c.rank() <= 2 && broadcastShapes(c.shape, y) == y, ErrorKind::ShapeInference,
              "C {} does not broadcast to the result {}", shapeToString(c.shape), shapeToString(y));
  }
  if (isInteger(a.dtype))
    for (const char* name : {"alpha", "beta"}) {
      const float v = ctx.attrs().getFloat(name, 1.0f);
      TCX_CHECK(v == std::trunc(v), ErrorKind::Unsupported, "{} = {} is not an integer, as {} Gemm needs", name, v,
                dtypeName(a.dtype));
    }
  ctx.setOutputType(0, {a.dtype, y});
}

template <typename T> void runGemm(KernelContext& ctx) {
  using Acc = GemmAcc<T>;
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  const GemmDims d = gemmDims(a.shape(), b.shape(), ctx.attrs());
  const Acc alpha = static_cast<Acc>(ctx.attrs().getFloat("alpha", 1.0f));
  const Acc beta = static_cast<Acc>(ctx.attrs().getFloat("beta", 1.0f));
  const Shape y{d.gemm.m, d.gemm.n};

  OutputAccumulator<T> acc(ctx.output(0));
  Acc* out = acc.data();
  if (ctx.hasInput(2) && beta != Acc(0)) {
    const Tensor& c = ctx.input(2);
    const T* src = c.data<T>().data();
    const std::vector<int64_t> strides = broadcastStrides(c.shape(), y);
    stridedLoop<1>(y, {strides.data()},
                   [&](const std::array<int64_t, 1>& o) { *out++ = beta * static_cast<Acc>(src[o[0]]); });
    out = acc.data();
  }
  // A stored [K, M] (transA) has A'(i, k) at k * M + i.
  const StridedMatrix<T> ma =
      d.transA ? StridedMatrix<T>{a.data<T>().data(), 1, d.gemm.m} : StridedMatrix<T>{a.data<T>().data(), d.gemm.k, 1};
  const StridedMatrix<T> mb =
      d.transB ? StridedMatrix<T>{b.data<T>().data(), 1, d.gemm.k} : StridedMatrix<T>{b.data<T>().data(), d.gemm.n, 1};
  gemm<T>(d.gemm, alpha, 1, [&](int64_t) { return GemmOperands<T>{ma, mb, out, d.gemm.n}; });
  acc.finish();
}

// A multiply-add over K for each element of Y: A' is [M, K], so A is [K, M]
// under transA. Adding beta * C is the epilogue's.
double gemmFlops(const Node& node) {
  const Shape& a = node.input(0)->type().shape;
  const double k = static_cast<double>(node.attrs().getInt("transA", 0) ? a[0] : a[1]);
  return 2 * k * static_cast<double>(node.output(0)->type().numElements());
}

} // namespace

OpDef gemmOp() {
  OpDef def;
  def.name = "Gemm";
  def.opClass = OpClass::Contraction;
  def.fusionRole = FusionRole::GeneralMatrixProduct;
  def.flops = gemmFlops;
  def.minInputs = 2;
  def.maxInputs = 3;
  def.attributes = {
      {"alpha", AttrKind::Float}, {"beta", AttrKind::Float}, {"transA", AttrKind::Int}, {"transB", AttrKind::Int}};
  def.infer = inferGemm;
  def.kernel = [](KernelContext& ctx) {
    ContractionTypes::dispatch(ctx.input(0).dtype(), [&]<typename T>() { runGemm<T>(ctx); });
  };
  return def;
}

} // namespace tcx::nn
