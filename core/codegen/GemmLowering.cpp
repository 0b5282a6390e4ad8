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

} // namespace

bool emitLibraryGemm(ValueCode& values, const CodegenTarget& target) {
  const PlanKernel& k = values.kernel();
  const FusedKernel& fused = *k.fused;
  const Node& mm = *fused.anchor;
  if (fused.kind != KernelKind::Gemm || mm.opType() != "MatMul") return false;
  const Value *a = mm.input(0), *b = mm.input(1), *c = mm.output(0);
  const Shape &as = a->type().shape, &bs = b->type().shape, &cs = c->type().shape;
  if (as.size() < 2 || bs.size() < 2) return false;
  std::optional<ElemType> type = elemType(c->type().dtype);
  if (!type || a->type().dtype != c->type().dtype || b->type().dtype != c->type().dtype) return false;
  const TensorAccess *aAccess = inputAccess(k, a), *bAccess = inputAccess(k, b);
  if (!aAccess || !bAccess) return false;
  std::optional<StridedView> av = stridedView(*aAccess), bv = stridedView(*bAccess);
  if (!av || !bv) return false;

  const int64_t m = as[as.size() - 2], kk = as.back(), n = bs.back();
  const size_t aBatch = as.size() - 2, bBatch = bs.size() - 2;
  int64_t bBatchCount = 1;
  for (size_t d = 0; d < bBatch; ++d) bBatchCount *= bs[d];
  GemmProblem problem;
  problem.type = *type;
  problem.n = static_cast<int>(n);
  problem.k = static_cast<int>(kk);
  problem.bStrides[1] = bv->strides[bBatch];
  problem.bStrides[2] = bv->strides[bBatch + 1];
  problem.aStrides[2] = av->strides[aBatch + 1];
  const int64_t outRows = numElements(cs) / n; // every output row, batches included
  if (bBatchCount == 1) {
    // A weight shared by every batch: the batches are more rows of one GEMM.
    std::optional<int64_t> rowStride = foldedStride(*av, as, 0, aBatch + 1);
    if (!rowStride) return false;
    problem.batch = 1;
    problem.m = static_cast<int>(outRows);
    problem.aStrides[1] = *rowStride;
  } else {
    // Batches on both sides, same count, each side's batch dimensions one stride.
    if (as.size() != bs.size() || !std::equal(as.begin(), as.begin() + aBatch, bs.begin())) return false;
    std::optional<int64_t> aBatchStride = foldedStride(*av, as, 0, aBatch),
                           bBatchStride = foldedStride(*bv, bs, 0, bBatch);
    if (!aBatchStride || !bBatchStride) return false;
    problem.batch = static_cast<int>(outRows / m);
    problem.m = static_cast<int>(m);
    problem.aStrides[0] = *aBatchStride;
    problem.aStrides[1] = av->strides[aBatch];
    problem.bStrides[0] = *bBatchStride;
  }
  const int elem = elemBytes(*type);
  problem.aAligned16 = av->offset * elem % 16 == 0;
  problem.bAligned16 = bv->offset * elem % 16 == 0;

  std::vector<const Node*> chain;
  for (const Node* node : fused.nodes)
    if (node != &mm) chain.push_back(node);
  std::optional<std::string> chainStatements = chainCode(values, c, "acc", chain);
  if (!chainStatements) return false;
  std::optional<std::string> stores = storeCode(values, c, chain);
  if (!stores) return false;

  const GemmPlan plan = planGemm(problem, target.smCount);
  ModuleBuilder& module = values.module();
  const std::string prefix = values.prefix();
  // The epilogue: (batch, m, n) -> the output's index, then the chain.
  std::string decompose = fmt::format("    tcx::i64 row = tcx::i64(batch) * {} + m;\n", problem.m);
  for (size_t d = cs.size() - 1; d-- > 0;) {
    decompose += fmt::format("    const tcx::i64 x{} = row % {};\n", d, cs[d]);
    if (d) decompose += fmt::format("    row /= {};\n", cs[d]);
  }
  decompose += fmt::format("    const tcx::i64 x{} = n;\n", cs.size() - 1);
  module.append(fmt::format("struct {p}Epilogue {{\n  Buffers b;\n  __device__ __forceinline__ void operator()(int "
                            "batch, int m, int n, float acc) const {{\n{d}{c}{s}  }}\n}};\n\n",
                            fmt::arg("p", prefix), fmt::arg("d", decompose), fmt::arg("c", *chainStatements),
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
  GeneratedLaunch launch;
  launch.planKernel = values.planKernelIndex();
  launch.entry = prefix + "gemm";
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = plan.launch.grid[i];
    launch.block[i] = plan.launch.block[i];
  }
  launch.sharedBytes = plan.launch.sharedBytes;
  launch.what = fmt::format("gemm {}x{}x{} (batch {})", p.m, p.n, p.k, p.batch);
  module.addLaunch(std::move(launch));
  return true;
}

} // namespace tcx
