#include "codegen/GemmLowering.h"

#include "codegen/ConvLowering.h"
#include "codegen/CudaCodegen.h"
#include "codegen/CudaTypes.h"
#include "codegen/EpilogueCode.h"
#include "codegen/KernelText.h"
#include "codegen/PrologueCode.h"
#include "codegen/VendorLowering.h"
#include "fusion/FusionPass.h"
#include "plan/StridedView.h"

#include "ops/OpDef.h"
#include "tcx/launch.h"

#include <fmt/format.h>

namespace tcx {

namespace {

std::optional<ElemType> elemType(DType t) {
  switch (t) {
  case DType::F32: return ElemType::F32;
  case DType::F16: return ElemType::F16;
  case DType::BF16: return ElemType::BF16;
  case DType::F64:
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::U8:
  case DType::Bool: return std::nullopt;
  }
  return std::nullopt;
}

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
  // B is this prologue's source, mapped as it is staged (a pointwise
  // convolution's BN-ReLU): gemm_wgmma_f32 alone applies one.
  std::optional<ChannelPrologue> bPrologue;
};

// A match with A and B (the anchor's first two operands) as strided views,
// when the kernel is a GEMM anchored on an op of `role`.
std::optional<GemmMatch> operandViews(const ValueCode& values, FusionRole role) {
  const PlanKernel& k = values.kernel();
  const Node& anchor = *k.fused->anchor;
  if (k.fused->kind != KernelKind::Gemm || anchor.op().fusionRole != role) return std::nullopt;
  const TensorAccess *aAccess = values.inputAccess(anchor.input(0)), *bAccess = values.inputAccess(anchor.input(1));
  if (!aAccess || !bAccess) return std::nullopt;
  std::optional<StridedView> av = stridedView(*aAccess), bv = stridedView(*bAccess);
  if (!av || !bv) return std::nullopt;
  return GemmMatch{.a = std::move(*av), .b = std::move(*bv)};
}

// MatMul `mm` over operand views a and b, with NumPy batching: a weight
// shared by every batch folds the batches into rows; batches on both sides
// need one stride per side.
std::optional<GemmMatch> matMulMatch(const Node& mm, StridedView a, StridedView b) {
  const Shape &as = mm.input(0)->type().shape, &bs = mm.input(1)->type().shape, &cs = mm.output(0)->type().shape;
  if (as.size() < 2 || bs.size() < 2) return std::nullopt;
  GemmMatch match{.a = std::move(a), .b = std::move(b)};
  const StridedView *av = &match.a, *bv = &match.b;

  const int64_t m = as[as.size() - 2], kk = as.back(), n = bs.back();
  const size_t aBatch = as.size() - 2, bBatch = bs.size() - 2;
  int64_t bBatchCount = 1;
  for (size_t d = 0; d < bBatch; ++d) bBatchCount *= bs[d];
  GemmProblem& problem = match.problem;
  problem.n = static_cast<int>(n);
  problem.k = static_cast<int>(kk);
  problem.bStrides[1] = bv->strides[bBatch];
  problem.bStrides[2] = bv->strides[bBatch + 1];
  problem.aStrides[2] = av->strides[aBatch + 1];
  const int64_t outRows = numElements(cs) / n; // every output row, batches included
  if (bBatchCount == 1) {
    // A weight shared by every batch: the batches are more rows of one GEMM, in the view's order or, for
    // a sequence-first view [S, N, K] of a batch-first tensor (as PyTorch's multi-head attention reads its
    // input), in memory order, the epilogue putting each row back; where they fold in neither order (the
    // sequence sliced), one GEMM per batch with B's batch stride 0.
    if (std::optional<int64_t> rowStride = foldedStride(*av, as, 0, aBatch + 1)) {
      problem.batch = 1;
      problem.m = static_cast<int>(outRows);
      problem.aStrides[1] = *rowStride;
    } else if (as.size() == 3 && cs.size() == 3 && av->strides[1] == av->strides[0] * as[0]) {
      problem.batch = 1;
      problem.m = static_cast<int>(outRows);
      problem.aStrides[1] = av->strides[0];
      match.outIndex = fmt::format("    const Index x0 = m % {0}, x1 = m / {0}, x2 = n;\n", as[0]);
      return match;
    } else if (as.size() == 3 && cs.size() == 3) {
      // [S, N, K]: one GEMM per batch with B's batch stride 0, the larger leading dimension as the rows
      // that fill the row tiles.
      const int batchDim = as[0] > as[1] ? 1 : 0, rowDim = 1 - batchDim;
      problem.batch = static_cast<int>(as[batchDim]);
      problem.m = static_cast<int>(as[rowDim]);
      problem.aStrides[0] = av->strides[batchDim];
      problem.aStrides[1] = av->strides[rowDim];
      problem.bStrides[0] = 0;
      match.outIndex = fmt::format("    const Index x{} = batch, x{} = m, x2 = n;\n", batchDim, rowDim);
      return match;
    } else {
      std::optional<int64_t> aBatchStride = foldedStride(*av, as, 0, aBatch);
      if (!aBatchStride) return std::nullopt;
      problem.batch = static_cast<int>(outRows / m);
      problem.m = static_cast<int>(m);
      problem.aStrides[0] = *aBatchStride;
      problem.aStrides[1] = av->strides[aBatch];
      problem.bStrides[0] = 0;
    }
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

// The kernel's anchor MatMul, its operands the kernel's inputs.
std::optional<GemmMatch> matchMatMul(ValueCode& values) {
  std::optional<GemmMatch> views = operandViews(values, FusionRole::MatrixProduct);
  if (!views) return std::nullopt;
  return matMulMatch(*values.kernel().fused->anchor, std::move(views->a), std::move(views->b));
}

// Gemm: Y = alpha A' B' + beta C, A' and B' being A and B or their
// transposes. A transpose is the same view with its two strides swapped;
// alpha and beta C (broadcast to Y) join the accumulator in the epilogue, in
// the CPU kernel's order.
std::optional<GemmMatch> matchGemm(ValueCode& values) {
  const PlanKernel& k = values.kernel();
  const Node& gemm = *k.fused->anchor;
  std::optional<GemmMatch> views = operandViews(values, FusionRole::GeneralMatrixProduct);
  if (!views) return std::nullopt;
  const AttrMap& attrs = gemm.attrs();
  const bool transA = attrs.getInt("transA", 0) != 0, transB = attrs.getInt("transB", 0) != 0;
  const Shape &as = gemm.input(0)->type().shape, &bs = gemm.input(1)->type().shape;
  GemmMatch match = std::move(*views);
  const StridedView *av = &match.a, *bv = &match.b;
  GemmProblem& problem = match.problem;
  problem.batch = 1;
  problem.m = static_cast<int>(transA ? as[1] : as[0]);
  problem.k = static_cast<int>(transA ? as[0] : as[1]);
  problem.n = static_cast<int>(transB ? bs[0] : bs[1]);
  problem.aStrides[1] = av->strides[transA ? 1 : 0];
  problem.aStrides[2] = av->strides[transA ? 0 : 1];
  problem.bStrides[1] = bv->strides[transB ? 1 : 0];
  problem.bStrides[2] = bv->strides[transB ? 0 : 1];
  match.outIndex = "    const Index x0 = m, x1 = n;\n";
  const double alpha = attrs.getFloat("alpha", 1.0f), beta = attrs.getFloat("beta", 1.0f);
  if (alpha != 1.0) match.acc = cudaExactValue(alpha, "float") + " * acc";
  if (gemm.numInputs() > 2 && gemm.input(2) && beta != 0.0) {
    const Value* c = gemm.input(2);
    std::string bias = values.call(c, broadcastIndex(c->type().shape, gemm.output(0)->type().shape, {"x0", "x1"}));
    if (beta != 1.0) bias = cudaExactValue(beta, "float") + " * " + bias;
    match.acc = bias + " + " + match.acc;
  }
  return match;
}

// A pointwise convolution (1x1 kernel, unit strides, no padding, one group)
// is a GEMM per image: out[img][oc][p] = sum_c W[oc][c] * X[img][c][p] over
// the flattened spatial positions p. X computed in the kernel by a channel
// prologue is read as the prologue's source, with the prologue in the match.
std::optional<GemmMatch> matchPointwiseConv(ValueCode& values) {
  const Node* anchor = convolutionAnchor(values);
  if (!anchor) return std::nullopt;
  const Node& conv = *anchor;
  const Value *x = conv.input(0), *w = conv.input(1), *y = conv.output(0);
  const Shape &xs = x->type().shape, &ws = w->type().shape, &ys = y->type().shape;
  if (xs.size() < 3 || ys.size() != xs.size() || ws.size() != xs.size() || !isPointwiseConvolution(conv))
    return std::nullopt;
  std::optional<ChannelPrologue> prologue = channelPrologue(values, x);
  const TensorAccess *xAccess = values.inputAccess(prologue ? prologue->source : x), *wAccess = values.inputAccess(w);
  if (!xAccess || !wAccess) return std::nullopt;
  std::optional<StridedView> xv = stridedView(*xAccess), wv = stridedView(*wAccess);
  if (!xv || !wv) return std::nullopt;
  std::optional<int64_t> positionStride = foldedStride(*xv, xs, 2, xs.size());
  if (!positionStride) return std::nullopt;
  const int64_t positions = numElements(xs) / (xs[0] * xs[1]);
  GemmMatch match{.a = *wv, .b = *xv, .bPrologue = std::move(prologue)};
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
  match.outIndex = convOutIndex(ys);
  match.acc = convAcc(values, conv);
  return match;
}

// How the library runs `match` in `type` on the kernel's target.
GemmPlan planMatch(const ValueCode& values, const GemmMatch& match, ElemType type) {
  GemmProblem problem = match.problem;
  problem.type = type;
  const int elem = elemBytes(type);
  problem.aAligned16 = match.a.offset * elem % 16 == 0;
  problem.bAligned16 = match.b.offset * elem % 16 == 0;
  return planGemm(problem, values.target().smCount, 0, values.target().wgmma);
}

// How a kernel's code initialises GemmParams operand `o` (its strides)
// over `view` in `type`: "{pointer, batch, row, col}", each stride through
// `number` (a literal or a launch value).
template <typename Number>
std::string operandCode(const StridedView& view, const Operand& o, ElemType type, const Number& number) {
  return fmt::format("{{{}, {}, {}, {}}}",
                     ModuleBuilder::elementPointer(view.buffer, view.offset, cudaTypeName(type), elemBytes(type)),
                     number(o.strideBatch), number(o.strideRow), number(o.strideCol));
}

std::string literal(int64_t v) { return std::to_string(v); }

// The GEMM kernel `entry` for `match`, its epilogue the functor `epilogue`
// (whose code `epilogueCode` defines); `what` describes the launch.
void emitGemmKernel(ValueCode& values, const GemmMatch& match, ElemType type, const std::string& epilogueCode,
                    const std::string& epilogue, const std::string& entry, const std::string& what) {
  const GemmPlan plan = planMatch(values, match, type);
  ModuleBuilder& module = values.module();
  module.append(epilogueCode);
  std::string prologueArgs;
  if (match.bPrologue) {
    TCX_CHECK(plan.kernel == GemmKernel::WgmmaF32, ErrorKind::Internal, "a B prologue on a GEMM other than wgmma");
    module.append(prologueFunctor(values, *match.bPrologue));
    prologueArgs = values.prefix() + "Prologue";
  }

  const int workspace = plan.workspaceBytes ? module.sharedWorkspace(static_cast<int64_t>(plan.workspaceBytes)) : -1;
  const GemmParams& p = plan.params;
  // A GEMM with a B prologue takes K and A's strides as launch values, so
  // that a dense block's layers, whose GEMMs differ only in K (the layer's
  // input channels), share their code: DenseNet-121's module held 62 such
  // GEMMs of about 0.7 s of NVRTC each (docs/benchmarks.md). The K loop of
  // gemm_wgmma_f32, the one kernel that takes a prologue, runs a count the
  // kernel computes anyway. Every other GEMM keeps the literals it was
  // measured with.
  const bool byLaunch = match.bPrologue.has_value();
  const auto number = [&](int64_t v) { return byLaunch ? ModuleBuilder::launchValue(v) : literal(v); };
  std::string bounds, body;
  switch (plan.kernel) {
  case GemmKernel::SmallM:
    bounds = fmt::format("tcx::kSmallMThreads, tcx::smallMMinBlocks({})", plan.mTiles);
    body = "gemm_small_m_body";
    break;
  case GemmKernel::Tiled:
    bounds = fmt::format("tcx::tiledThreads({0}), tcx::tiledMinBlocks({0})", plan.tileRows);
    body = "gemm_tiled_body";
    break;
  case GemmKernel::WgmmaF32:
    bounds = fmt::format("tcx::kWgmmaThreads, tcx::wgmmaMinBlocks({})", plan.tf32);
    body = "gemm_wgmma_f32_body";
    break;
  }
  module.append(fmt::format(
      "{open}"
      "  tcx::GemmParams p;\n"
      "  p.a = {a};\n"
      "  p.b = {b};\n"
      "  p.batch = {batch};\n  p.m = {m};\n  p.n = {n};\n  p.k = int({k});\n"
      "  p.splitK = {splitK};\n  p.kPerSplit = int({kPerSplit});\n  p.kChunk = {kChunk};\n  p.workspace = {ws};\n"
      "  tcx::{body}<{args}>(p, {epilogue}{{b}}{prologue});\n}}\n\n",
      fmt::arg("open", kernelOpening(bounds, entry)), fmt::arg("epilogue", epilogue),
      fmt::arg("a", operandCode(match.a, p.a, type, number)), fmt::arg("b", operandCode(match.b, p.b, type, literal)),
      fmt::arg("batch", p.batch), fmt::arg("m", p.m), fmt::arg("n", p.n), fmt::arg("k", number(p.k)),
      fmt::arg("splitK", p.splitK), fmt::arg("kPerSplit", number(p.kPerSplit)), fmt::arg("kChunk", p.kChunk),
      fmt::arg("ws", workspace >= 0 ? ModuleBuilder::bufferRef(workspace) : "nullptr"), fmt::arg("body", body),
      fmt::arg("args", gemmTemplateArgs(plan, epilogue) + (prologueArgs.empty() ? "" : ", " + prologueArgs)),
      fmt::arg("prologue", prologueArgs.empty() ? "" : ", " + prologueArgs + "{b}")));
  module.addLibraryLaunch(values.planKernelIndex(), entry, plan.launch.grid, plan.launch.block, plan.launch.sharedBytes,
                   fmt::format("{}gemm {}x{}x{} (batch {}{}) on {}", what, p.m, p.n, p.k, p.batch,
                               p.splitK > 1 ? fmt::format(", split {}", p.splitK) : "", gemmKernelName(plan)));
}

bool emitGemm(ValueCode& values, const GemmMatch& match, ElemType type, const std::string& what) {
  std::optional<std::string> epilogue = epilogueFunctor(values, match.outIndex, match.acc);
  if (!epilogue) return false;
  emitGemmKernel(values, match, type, *epilogue, values.prefix() + "Epilogue", values.prefix() + "gemm", what);
  return true;
}

// The kernel that writes `match`'s B with its prologue applied to buffer
// `out`, dense [batch][k][n] (the convolution's input, NCHW), for a library
// call (VendorAlternative::prelude): stage_b_prologue_body over the
// prologue functor emitGemmKernel defined, B's operand written as the
// GEMM's is, K a launch value as the GEMM's is so that it does not keep the
// code of GEMMs that differ only in K apart. Its launch is returned, not
// recorded.
GeneratedLaunch emitPrologueStage(ValueCode& values, const GemmMatch& match, int out, std::string what) {
  const GemmParams p = planMatch(values, match, ElemType::F32).params;
  const std::string prefix = values.prefix();
  values.module().append(fmt::format(
      "{open}"
      "  tcx::GemmParams p{{}};\n"
      "  p.b = {b};\n"
      "  p.batch = {batch};\n  p.n = {n};\n  p.k = int({k});\n"
      "  tcx::stage_b_prologue_body(p, static_cast<float*>({out}), {p}Prologue{{b}});\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), prefix + "prelude")), fmt::arg("p", prefix),
      fmt::arg("b", operandCode(match.b, p.b, ElemType::F32, literal)), fmt::arg("batch", p.batch),
      fmt::arg("n", p.n), fmt::arg("k", ModuleBuilder::launchValue(p.k)), fmt::arg("out", ModuleBuilder::bufferRef(out))));
  const int64_t count = int64_t{p.batch} * p.k * p.n;
  return ModuleBuilder::launch1d(values.planKernelIndex(), prefix + "prelude",
                                 (count + kKernelThreads - 1) / kKernelThreads, kKernelThreads, std::move(what));
}

// A float pointwise convolution whose GEMM runs in tf32 on gemm_wgmma_f32:
// the epilogue in the GEMM's registers, where conv_implicit_gemm's 128 x 64
// tiles and the library calls' staged result (cuDNN's or cuBLAS's, then the
// epilogue kernel) cost ResNeXt-50's 1x1 convolutions at 56 x 56 and 32
// images 165-193 us on an H100 (docs/benchmarks.md), where their bytes
// alone would take about 50 at the memory's bandwidth (computed, not timed). Only where a 128-row tile of output channels is at
// least half used, and where the GEMM reads the pixels with channels
// contiguous (a channels-last input) or computes its input as it loads (a
// BN-ReLU prologue); nullopt elsewhere (no wgmma, operands it cannot read,
// fewer channels, pixels contiguous), which keeps conv_implicit_gemm. With the
// pixels contiguous (NCHW) the staged convolution was the faster of the two
// on an H200: the YOLOv11 C3K2 block 725.8 -> 668.3 us, serving
// EfficientNet-B0 1988.9 -> 1896.5, SqueezeNet 1231.9 -> 1205.0, batch-1
// ResNeXt-50 546.0 -> 540.8, the rest within noise (docs/benchmarks.md).
constexpr int kMinTf32GemmChannels = 64;

std::optional<GemmMatch> matchTf32PointwiseConv(ValueCode& values) {
  std::optional<GemmMatch> match = matchPointwiseConv(values);
  if (!match || match->problem.m < kMinTf32GemmChannels) return std::nullopt;
  match->problem.tf32 = true;
  const GemmProblem& p = match->problem;
  if (!match->bPrologue && operandAccess(p.bStrides, p.bAligned16, p.batch, ElemType::F32) == Access::ColContiguous)
    return std::nullopt;
  if (planMatch(values, *match, ElemType::F32).kernel != GemmKernel::WgmmaF32) return std::nullopt;
  return match;
}

// The element type every operand of `node` and its result share, if the
// library GEMMs take it.
std::optional<ElemType> sharedElemType(const Node& node) {
  const Value* result = node.output(0);
  for (const Value* v : node.inputs())
    if (v && v->type().dtype != result->type().dtype) return std::nullopt;
  return elemType(result->type().dtype);
}

// The GEMM a kernel of `type` runs on the library GEMMs, if it is one.
std::optional<GemmMatch> libraryGemmMatch(ValueCode& values, ElemType type) {
  std::optional<GemmMatch> gemm = matchMatMul(values);
  if (!gemm) gemm = matchGemm(values);
  // Float convolutions run in tf32, as cuDNN's do by default: pointwise ones
  // as GEMMs on gemm_wgmma_f32 (matchTf32PointwiseConv), the others on
  // conv_implicit_gemm's tf32 tensor cores. gemm_tiled keeps fp32's accuracy
  // for float (3xTF32), which MatMuls keep (PyTorch's default too); a tf32
  // gemm_tiled measured slower than the staged implicit GEMM on pointwise
  // convolutions (docs/benchmarks.md).
  if (!gemm) gemm = type == ElemType::F32 ? matchTf32PointwiseConv(values) : matchPointwiseConv(values);
  // Only the tf32 GEMM applies a prologue; the convolution kernels read it staged.
  if (gemm && gemm->bPrologue && !gemm->problem.tf32) return std::nullopt;
  return gemm;
}

} // namespace

bool emitStagedMatMul(ValueCode& values, const Node& mm, const std::string& entry, int scratch,
                      const std::string& offset) {
  std::optional<ElemType> type = sharedElemType(mm);
  std::optional<StridedView> a = values.memoryView(mm.input(0)), b = values.memoryView(mm.input(1));
  if (!type || !a || !b) return false;
  std::optional<GemmMatch> match = matMulMatch(mm, std::move(*a), std::move(*b));
  if (!match) return false;
  const DType dtype = mm.output(0)->type().dtype;
  const std::string epilogue = entry + "Epilogue";
  const std::string code = fmt::format(
      "struct {e} {{\n  Buffers b;\n  __device__ __forceinline__ void operator()(int batch, int m, int n, float acc) "
      "const {{\n{index}    tcx::store<{s}>({scratch}, {offset}, tcx::roundTo<{s}>(acc));\n  }}\n}};\n\n",
      fmt::arg("e", epilogue), fmt::arg("index", match->outIndex), fmt::arg("s", cudaStorageType(dtype)),
      fmt::arg("scratch", ModuleBuilder::bufferRef(scratch)), fmt::arg("offset", offset));
  emitGemmKernel(values, *match, *type, code, epilogue, entry, fmt::format("stage {} on the library ", mm.describe()));
  return true;
}

bool emitLibraryGemm(ValueCode& values, const CodegenTarget& target) {
  std::optional<ElemType> type = sharedElemType(*values.kernel().fused->anchor);
  if (!type) return false;
  const std::optional<GemmMatch> gemm = libraryGemmMatch(values, *type);
  if (!gemm) return emitLibraryConv(values, *type, target);
  const GemmProblem& p = gemm->problem;
  const std::string after = gemm->bPrologue ? " after " + prologueSummary(*gemm->bPrologue) : "";
  if (!emitGemm(values, *gemm, *type, p.tf32 ? fmt::format("conv 1x1 {}->{}{} as tf32 ", p.k, p.m, after) : ""))
    return false;
  // cuDNN reads the convolution's input from memory: where the GEMM
  // computes it as it loads, the library call's prelude stages it first.
  // Measured like any alternative: at 32 images the GEMM with its prologue
  // wins, at one image cuDNN (docs/benchmarks.md).
  if (gemm->bPrologue) {
    const Node& conv = *convolutionAnchor(values);
    const Value* x = conv.input(0);
    const int input = values.module().vendorInput(x->type().byteSize());
    GeneratedLaunch prelude = emitPrologueStage(values, *gemm, input, "stage " + x->name());
    offerVendorConv(values, conv, rowMajorView(input, x->type().shape), gemm->a, *type, std::move(prelude));
    return true;
  }
  // A float convolution keeps cuDNN's algorithms (and cuBLAS's GEMM) on offer.
  if (p.tf32) {
    offerVendorConv(values, *convolutionAnchor(values), gemm->b, gemm->a, *type);
    return true;
  }
  GemmProblem problem = gemm->problem;
  problem.type = *type;
  offerVendorGemm(values, problem, gemm->a, gemm->b);
  return true;
}

bool emitGemmOverStages(ValueCode& values) {
  const Node& anchor = *values.kernel().fused->anchor;
  std::optional<ElemType> type = sharedElemType(anchor);
  if (anchor.op().fusionRole != FusionRole::MatrixProduct || !type) return false;
  std::optional<StridedView> a = values.memoryView(anchor.input(0)), b = values.memoryView(anchor.input(1));
  if (!a || !b) return false;
  std::optional<GemmMatch> match = matMulMatch(anchor, std::move(*a), std::move(*b));
  return match && emitGemm(values, *match, *type, "");
}

} // namespace tcx
