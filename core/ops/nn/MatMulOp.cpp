// MatMul: numpy matmul. Operands of rank >= 2 are stacks of matrices whose
// batch dimensions broadcast; a 1-D operand is promoted to a matrix (a row
// for A, a column for B) and the added dimension is dropped from the result.

#include "ir/Graph.h"
#include "ops/StridedLoop.h"
#include "ops/nn/Common.h"
#include "ops/nn/Ops.h"

namespace tcx::nn {

namespace {

struct MatMulDims {
  Shape batchA;
  Shape batchB;
  Shape batch; // batchA and batchB broadcast
  GemmShape gemm;
  Shape output;
};

MatMulDims matMulDims(const Shape& a, const Shape& b) {
  TCX_CHECK(!a.empty() && !b.empty(), ErrorKind::ShapeInference, "operands must not be scalars, got {} and {}",
            shapeToString(a), shapeToString(b));
  const Shape a2 = a.size() == 1 ? Shape{1, a[0]} : a;
  const Shape b2 = b.size() == 1 ? Shape{b[0], 1} : b;
  MatMulDims d;
  d.gemm = {a2[a2.size() - 2], b2[b2.size() - 1], a2[a2.size() - 1]};
  TCX_CHECK(d.gemm.k == b2[b2.size() - 2], ErrorKind::ShapeInference, "inner dimensions differ: {} x {} ({} vs {})",
            shapeToString(a), shapeToString(b), d.gemm.k, b2[b2.size() - 2]);
  d.batchA.assign(a2.begin(), a2.end() - 2);
  d.batchB.assign(b2.begin(), b2.end() - 2);
  d.batch = broadcastShapes(d.batchA, d.batchB);
  d.output = d.batch;
  if (a.size() > 1) d.output.push_back(d.gemm.m);
  if (b.size() > 1) d.output.push_back(d.gemm.n);
  return d;
}

void inferMatMul(InferContext& ctx) {
  const TensorType& a = ctx.inputType(0);
  const TensorType& b = ctx.inputType(1);
  ContractionTypes::check(a.dtype, "A");
  TCX_CHECK(a.dtype == b.dtype, ErrorKind::ShapeInference, "A is {} but B is {}", dtypeName(a.dtype),
            dtypeName(b.dtype));
  ctx.setOutputType(0, {a.dtype, matMulDims(a.shape, b.shape).output});
}

template <typename T> void runMatMul(const Tensor& a, const Tensor& b, Tensor& y) {
  MatMulDims d = matMulDims(a.shape(), b.shape());
  const int64_t matrixA = d.gemm.m * d.gemm.k, matrixB = d.gemm.k * d.gemm.n, matrixY = d.gemm.m * d.gemm.n;
  // Where each product's matrices start, in matrices.
  std::vector<int64_t> offsetA, offsetB;
  const std::vector<int64_t> stridesA = broadcastStrides(d.batchA, d.batch);
  const std::vector<int64_t> stridesB = broadcastStrides(d.batchB, d.batch);
  stridedLoop<2>(d.batch, {stridesA.data(), stridesB.data()}, [&](const std::array<int64_t, 2>& o) {
    offsetA.push_back(o[0]);
    offsetB.push_back(o[1]);
  });
  int64_t batch = numElements(d.batch);
  // A stack of A times one B is a single taller product: the stacked rows
  // are contiguous in A and in Y.
  if (numElements(d.batchB) == 1 && numElements(d.batchA) == batch) {
    d.gemm.m *= batch;
    batch = 1;
  }

  const T* pa = a.data<T>().data();
  const T* pb = b.data<T>().data();
  OutputAccumulator<T> acc(y);
  GemmAcc<T>* pc = acc.data();
  gemm<T>(d.gemm, GemmAcc<T>(1), batch, [&](int64_t i) {
    return GemmOperands<T>{StridedMatrix<T>{pa + offsetA[i] * matrixA, d.gemm.k, 1},
                           StridedMatrix<T>{pb + offsetB[i] * matrixB, d.gemm.n, 1}, pc + i * matrixY, d.gemm.n};
  });
  acc.finish();
}

// A multiply-add over the shared dimension K for each output element.
double matMulFlops(const Node& node) {
  const double k = static_cast<double>(node.input(0)->type().shape.back());
  return 2 * k * static_cast<double>(node.output(0)->type().numElements());
}

} // namespace

OpDef matMulOp() {
  OpDef def;
  def.name = "MatMul";
  def.opClass = OpClass::Contraction;
  def.fusionRole = FusionRole::MatrixProduct;
  def.flops = matMulFlops;
  def.minInputs = def.maxInputs = 2;
  def.infer = inferMatMul;
  def.kernel = [](KernelContext& ctx) {
    ContractionTypes::dispatch(ctx.input(0).dtype(),
                               [&]<typename T>() { runMatMul<T>(ctx.input(0), ctx.input(1), ctx.output(0)); });
  };
  return def;
}

} // namespace tcx::nn
