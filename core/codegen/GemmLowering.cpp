#include "codegen/GemmLowering.h"

#include "codegen/CudaCodegen.h"
#include "codegen/EpilogueCode.h"
#include "codegen/StridedView.h"

#include "tcx/launch.h"

#include <fmt/format.h>

namespace tcx {

namespace {

std::optional<ElemType> elemType(DType t) {
  switch (t) {
  case DType::F32: return ElemType::F32;
  case DType::F16: return ElemType::F16;
  case DType::BF16: return ElemType::BF16;
  default: return std::nullopt;
  }
}

const TensorAccess* inputAccess(const PlanKernel& k, const Value* v) {
  for (const TensorAccess& a : k.inputs)
    if (a.value == v) return &a;
  return nullptr;
}

// One operand of the GEMM: (batch, row, col) strides and its base.
struct OperandView {
  int buffer = -1;
  int64_t offset = 0;
  i64 strides[3] = {};
};

// Folds the dimensions [first, last) of `view` into one of `shape`'s
// product, if their strides allow (size-1 dimensions fold anywhere).
std::optional<int64_t> foldedStride(const StridedView& view, const Shape& shape, size_t first, size_t last) {
  std::optional<int64_t> stride;
  int64_t inner = 1;
  for (size_t d = last; d-- > first;) {
    if (shape[d] == 1) continue;
    if (!stride) stride = view.strides[d];
    else if (view.strides[d] != *stride * inner) return std::nullopt;
    inner *= shape[d];
  }
  return stride.value_or(0);
}


// A contraction as the library GEMM sees it: the problem, the operands'
// buffers, how the epilogue turns (batch, m, n) into the anchor's output
// index, and the accumulator expression (a Conv adds its bias).
struct GemmMatch {
  GemmProblem problem;
  StridedView a, b;
  std::string outIndex;
  std::string acc = "acc";
};

// MatMul with NumPy batching: a weight shared by every batch folds the
// batches into rows; batches on both sides need one stride per side.
std::optional<GemmMatch> matchMatMul(ValueCode& values) {
  const PlanKernel& k = values.kernel();
  const Node& mm = *k.fused->anchor;
  if (k.fused->kind != KernelKind::Gemm || mm.opType() != "MatMul") return std::nullopt;
  const Value *a = mm.input(0), *b = mm.input(1), *c = mm.output(0);
  const Shape &as = a->type().shape, &bs = b->type().shape, &cs = c->type().shape;
  if (as.size() < 2 || bs.size() < 2) return std::nullopt;
  const TensorAccess *aAccess = inputAccess(k, a), *bAccess = inputAccess(k, b);
  if (!aAccess || !bAccess) return std::nullopt;
  std::optional<StridedView> av = stridedView(*aAccess), bv = stridedView(*bAccess);
  if (!av || !bv) return std::nullopt;

  const int64_t m = as[as.size() - 2], kk = as.back(), n = bs.back();
  const size_t aBatch = as.size() - 2, bBatch = bs.size() - 2;
  int64_t bBatchCount = 1;
  for (size_t d = 0; d < bBatch; ++d) bBatchCount *= bs[d];
  GemmMatch match{.a = *av, .b = *bv};
  GemmProblem& problem = match.problem;
  problem.n = static_cast<int>(n);
  problem.k = static_cast<int>(kk);
  problem.bStrides[1] = bv->strides[bBatch];
  problem.bStrides[2] = bv->strides[bBatch + 1];
  problem.aStrides[2] = av->strides[aBatch + 1];
  const int64_t outRows = numElements(cs) / n; // every output row, batches included
  if (bBatchCount == 1) {
    // A weight shared by every batch: the batches are more rows of one GEMM.
    std::optional<int64_t> rowStride = foldedStride(*av, as, 0, aBatch + 1);
    if (!rowStride) return std::nullopt;
    problem.batch = 1;
    problem.m = static_cast<int>(outRows);
    problem.aStrides[1] = *rowStride;
  } else {
    // Batches on both sides, same count, each side's batch dimensions one stride.
    if (as.size() != bs.size() || !std::equal(as.begin(), as.begin() + aBatch, bs.begin())) return std::nullopt;
    std::optional<int64_t> aBatchStride = foldedStride(*av, as, 0, aBatch),
                           bBatchStride = foldedStride(*bv, bs, 0, bBatch);
    if (!aBatchStride || !bBatchStride) return std::nullopt;
    problem.batch = static_cast<int>(outRows / m);
    problem.m = static_cast<int>(m);
    problem.aStrides[0] = *aBatchStride;
    problem.aStrides[1] = av->strides[aBatch];
    problem.bStrides[0] = *bBatchStride;
  }
  // Row (batch * m + m) over the output's leading dimensions, n the last.
  match.outIndex = fmt::format("    Index row = Index(batch) * {} + m;\n", problem.m);
  for (size_t d = cs.size() - 1; d-- > 0;) {
    match.outIndex += fmt::format("    const Index x{} = row % {};\n", d, cs[d]);
    if (d) match.outIndex += fmt::format("    row /= {};\n", cs[d]);
  }
  match.outIndex += fmt::format("    const Index x{} = n;\n", cs.size() - 1);
  return match;
}

// A pointwise convolution (1x1 kernel, unit strides, no padding, one group)
// is a GEMM per image: out[img][oc][p] = sum_c W[oc][c] * X[img][c][p] over
// the flattened spatial positions p.
std::optional<GemmMatch> matchPointwiseConv(ValueCode& values) {
  const PlanKernel& k = values.kernel();
  const Node& conv = *k.fused->anchor;
  if (k.fused->kind != KernelKind::Conv || conv.opType() != "Conv") return std::nullopt;
  const Value *x = conv.input(0), *w = conv.input(1), *y = conv.output(0);
  const Shape &xs = x->type().shape, &ws = w->type().shape, &ys = y->type().shape;
  if (xs.size() < 3 || ys.size() != xs.size() || ws.size() != xs.size()) return std::nullopt;
  for (size_t d = 2; d < ws.size(); ++d)
    if (ws[d] != 1 || xs[d] != ys[d]) return std::nullopt;
  const AttrMap& attrs = conv.attrs();
  if (attrs.getInt("group", 1) != 1) return std::nullopt;
  for (const char* attr : {"strides", "dilations"})
    for (int64_t v : attrs.getInts(attr, {}))
      if (v != 1) return std::nullopt;
  for (int64_t v : attrs.getInts("pads", {}))
    if (v != 0) return std::nullopt;
  const TensorAccess *xAccess = inputAccess(k, x), *wAccess = inputAccess(k, w);
  if (!xAccess || !wAccess) return std::nullopt;
  std::optional<StridedView> xv = stridedView(*xAccess), wv = stridedView(*wAccess);
  if (!xv || !wv) return std::nullopt;
  std::optional<int64_t> positionStride = foldedStride(*xv, xs, 2, xs.size());
  if (!positionStride) return std::nullopt;
  const int64_t positions = numElements(xs) / (xs[0] * xs[1]);
  GemmMatch match{.a = *wv, .b = *xv};
  GemmProblem& problem = match.problem;
  problem.batch = static_cast<int>(xs[0]);
  problem.m = static_cast<int>(ws[0]);
  problem.n = static_cast<int>(positions);
  problem.k = static_cast<int>(ws[1]);
  problem.aStrides[0] = 0;
  problem.aStrides[1] = wv->strides[0];
  problem.aStrides[2] = wv->strides[1];
  problem.bStrides[0] = xv->strides[0];
  problem.bStrides[1] = xv->strides[1];
  problem.bStrides[2] = *positionStride;
  match.outIndex = "    const Index x0 = batch, x1 = m;\n    Index p = n;\n";
  for (size_t d = ys.size() - 1; d >= 2; --d) {
    match.outIndex += fmt::format("    const Index x{} = p % {};\n", d, ys[d]);
    if (d > 2) match.outIndex += fmt::format("    p /= {};\n", ys[d]);
  }
  if (conv.numInputs() > 2 && conv.input(2)) match.acc = "acc + " + values.call(conv.input(2), {"x1"});
  return match;
}

} // namespace

bool emitLibraryGemm(ValueCode& values, const CodegenTarget& target) {
  const PlanKernel& k = values.kernel();
  const FusedKernel& fused = *k.fused;
  const Node& mm = *fused.anchor;
  std::optional<GemmMatch> match = matchMatMul(values);
  if (!match) match = matchPointwiseConv(values);
  if (!match) return false;
  const Value* c = mm.output(0);
  for (const Value* v : mm.inputs())
    if (v && v->type().dtype != c->type().dtype) return false;
  std::optional<ElemType> type = elemType(c->type().dtype);
  if (!type) return false;
  GemmProblem problem = match->problem;
  problem.type = *type;
  const int elem = elemBytes(*type);
  problem.aAligned16 = match->a.offset * elem % 16 == 0;
  problem.bAligned16 = match->b.offset * elem % 16 == 0;
  const StridedView *av = &match->a, *bv = &match->b;

  std::vector<const Node*> chain;
  for (const Node* node : fused.nodes)
    if (node != &mm) chain.push_back(node);
  std::optional<std::string> chainStatements = chainCode(values, c, match->acc, chain);
  if (!chainStatements) return false;
  std::optional<std::string> stores = storeCode(values, c, chain);
  if (!stores) return false;

  const GemmPlan plan = planGemm(problem, target.smCount);
  ModuleBuilder& module = values.module();
  const std::string prefix = values.prefix();
  module.append(fmt::format("struct {p}Epilogue {{\n  Buffers b;\n  __device__ __forceinline__ void operator()(int "
                            "batch, int m, int n, float acc) const {{\n{d}{c}{s}  }}\n}};\n\n",
                            fmt::arg("p", prefix), fmt::arg("d", match->outIndex), fmt::arg("c", *chainStatements),
                            fmt::arg("s", *stores)));

  int workspace = plan.workspaceBytes ? module.addScratch(static_cast<int64_t>(plan.workspaceBytes), true) : -1;
  const GemmParams& p = plan.params;
  const char* t = cudaTypeName(*type).data();
  const bool smallM = plan.kernel == GemmKernel::SmallM;
  std::string bounds = smallM ? fmt::format("tcx::kSmallMThreads, tcx::smallMMinBlocks({})", plan.mTiles)
                              : "tcx::kTiledThreads, tcx::kTiledMinBlocks";
  std::string body = smallM ? "gemm_small_m_body" : "gemm_tiled_body";
  module.append(fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({bounds}) {p}gemm(Buffers b) {{\n"
      "  tcx::GemmParams p;\n"
      "  p.a = {{static_cast<const {t}*>(b.p[{ab}]) + {ao}, {a0}, {a1}, {a2}}};\n"
      "  p.b = {{static_cast<const {t}*>(b.p[{bb}]) + {bo}, {b0}, {b1}, {b2}}};\n"
      "  p.batch = {batch};\n  p.m = {m};\n  p.n = {n};\n  p.k = {k};\n"
      "  p.splitK = {splitK};\n  p.kPerSplit = {kPerSplit};\n  p.kChunk = {kChunk};\n  p.workspace = {ws};\n"
      "  tcx::{body}<{args}>(p, {p}Epilogue{{b}});\n}}\n\n",
      fmt::arg("bounds", bounds), fmt::arg("p", prefix), fmt::arg("t", t), fmt::arg("ab", av->buffer),
      fmt::arg("ao", av->offset), fmt::arg("a0", p.a.strideBatch), fmt::arg("a1", p.a.strideRow),
      fmt::arg("a2", p.a.strideCol), fmt::arg("bb", bv->buffer), fmt::arg("bo", bv->offset),
      fmt::arg("b0", p.b.strideBatch), fmt::arg("b1", p.b.strideRow), fmt::arg("b2", p.b.strideCol),
      fmt::arg("batch", p.batch), fmt::arg("m", p.m), fmt::arg("n", p.n), fmt::arg("k", p.k),
      fmt::arg("splitK", p.splitK), fmt::arg("kPerSplit", p.kPerSplit), fmt::arg("kChunk", p.kChunk),
      fmt::arg("ws", workspace >= 0 ? fmt::format("b.p[{}]", workspace) : "nullptr"), fmt::arg("body", body),
      fmt::arg("args", gemmTemplateArgs(plan, prefix + "Epilogue"))));
  module.addLaunch(values.planKernelIndex(), prefix + "gemm", plan.launch.grid, plan.launch.block,
                   plan.launch.sharedBytes, fmt::format("gemm {}x{}x{} (batch {})", p.m, p.n, p.k, p.batch));
  return true;
}

} // namespace tcx
