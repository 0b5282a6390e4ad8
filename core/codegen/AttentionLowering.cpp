#include "codegen/AttentionLowering.h"

#include "codegen/CudaCodegen.h"
#include "codegen/EpilogueCode.h"
#include "codegen/KernelText.h"
#include "plan/StridedView.h"

#include "ops/OpDef.h"
#include "tcx/launch.h"

#include <fmt/format.h>

namespace tcx {

namespace {

// The parts of an attention kernel, in data-flow order.
struct AttentionPattern {
  const Node* scores = nullptr;          // Q K^T
  std::vector<const Node*> scoreOps;     // scale, soft-cap, mask, casts
  const Node* softmax = nullptr;
  const Node* output = nullptr;          // P V
  // PyTorch's safe softmax: Where(IsNaN(P), 0, P) turns the rows whose scores are all -inf into 0.
  const Node* nanTest = nullptr;
  bool emptyRowsZero = false;
};

bool isZeroConstant(const Value* v) {
  if (!v || !v->isConstant()) return false;
  const Tensor& t = v->constant();
  for (int64_t i = 0; i < t.numElements(); ++i)
    if (t.elementAsDouble(i) != 0) return false;
  return true;
}

// Whether `where` is safe softmax's Where(IsNaN(P), 0, P) on the pattern's softmax.
bool zeroesNanRows(const Node& where, const AttentionPattern& p) {
  return p.nanTest && where.input(0) == p.nanTest->output(0) && isZeroConstant(where.input(1)) &&
         where.input(2) == p.softmax->output(0);
}

std::optional<AttentionPattern> matchPattern(const FusedKernel& fused) {
  AttentionPattern p;
  bool afterSoftmax = false;
  for (const Node* node : fused.nodes) {
    const FusionRole role = node->op().fusionRole;
    if (role == FusionRole::MatrixProduct) {
      if (!p.scores) p.scores = node;
      else if (afterSoftmax && !p.output) p.output = node;
      else return std::nullopt;
    } else if (role == FusionRole::Softmax) {
      if (!p.scores || afterSoftmax) return std::nullopt;
      p.softmax = node;
      afterSoftmax = true;
    } else if (!afterSoftmax && p.scores) {
      p.scoreOps.push_back(node);
    } else if (afterSoftmax && !p.output && role == FusionRole::NanTest && !p.nanTest &&
               node->input(0) == p.softmax->output(0)) {
      p.nanTest = node;
    } else if (afterSoftmax && !p.output && role == FusionRole::Select && !p.emptyRowsZero &&
               zeroesNanRows(*node, p)) {
      p.emptyRowsZero = true;
    } else if (!(afterSoftmax && !p.output && role == FusionRole::TypeConversion)) {
      // Only casts and safe softmax between the softmax and P V: the kernel keeps P in fp32.
      return std::nullopt;
    }
  }
  if (!p.output || p.output != fused.nodes.back() || (p.nanTest && !p.emptyRowsZero)) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(p.softmax->input(0)->type().shape.size());
  const int64_t axis = p.softmax->attrs().getInt("axis", -1);
  if (axis != -1 && axis != rank - 1) return std::nullopt;
  return p;
}

// What both attention kernels read: the problem, Q, K and V as strided views
// (K and V with the query head divided by the group), and the functors'
// bodies.
struct AttentionOperands {
  AttentionProblem problem;
  StridedView q, k, v;
  std::string scoreChain, score, outChain, stores;
  bool emptyRowsZero = false;
};

// The kernel's operands, or nothing when a view or a chain has no code.
std::optional<AttentionOperands> operands(ValueCode& values, const AttentionPattern& pattern) {
  const Value *q = pattern.scores->input(0), *kt = pattern.scores->input(1), *v = pattern.output->input(1);
  const Value* out = pattern.output->output(0);
  const Shape &qs = q->type().shape, &ks = kt->type().shape, &vs = v->type().shape;
  if (qs.size() != 4 || ks.size() != 4 || vs.size() != 4) return std::nullopt;
  const DType dtype = q->type().dtype;
  if (kt->type().dtype != dtype || v->type().dtype != dtype) return std::nullopt;
  const TensorAccess *qa = values.inputAccess(q), *ka = values.inputAccess(kt), *va = values.inputAccess(v);
  if (!qa || !ka || !va) return std::nullopt;
  std::optional<StridedView> qv = stridedView(*qa);
  // The largest group of query heads that share one K and V head.
  std::optional<StridedView> kv, vv;
  const int64_t heads = qs[1];
  int64_t group = heads;
  for (; group >= 1; --group) {
    if (heads % group) continue;
    kv = stridedView(*ka, 1, group);
    vv = stridedView(*va, 1, group);
    if (kv && vv) break;
  }
  // K^T's view is (b, head, d, j): the split-K kernel needs d contiguous, the fp32 one d or j.
  const bool f32 = dtype == DType::F32;
  if (!qv || !kv || !vv || vv->strides[3] != 1 || !(kv->strides[2] == 1 || (f32 && kv->strides[3] == 1)))
    return std::nullopt;

  std::optional<std::string> scoreChain = chainCode(values, pattern.scores->output(0), "dot", pattern.scoreOps);
  if (!scoreChain) return std::nullopt;
  std::string score = values.call(pattern.softmax->input(0), {});
  std::optional<std::string> outChain = chainCode(values, out, "v", {});
  std::optional<std::string> stores = storeCode(values, out, {});
  if (!outChain || !stores) return std::nullopt;

  AttentionOperands ops{.q = std::move(*qv), .k = std::move(*kv), .v = std::move(*vv), .scoreChain = *scoreChain,
                        .score = std::move(score), .outChain = *outChain,
                        .stores = *stores, .emptyRowsZero = pattern.emptyRowsZero};
  AttentionProblem& pr = ops.problem;
  pr.type = dtype == DType::BF16 ? ElemType::BF16 : dtype == DType::F16 ? ElemType::F16 : ElemType::F32;
  pr.batch = static_cast<int>(qs[0]);
  pr.heads = static_cast<int>(heads);
  pr.kvHeads = static_cast<int>(heads / group);
  pr.sq = static_cast<int>(qs[2]);
  pr.skv = static_cast<int>(ks[3]);
  pr.headDim = static_cast<int>(qs[3]);
  return ops;
}

// The functors (ScoreOp `{p}Score`, OutStore `{p}Out`) and `{p}params(b)`, which fills
// AttentionParams from `plan`'s and the views; `workspace` is its expression.
std::string functorsAndParams(const AttentionOperands& ops, const AttentionParams& plan, const std::string& p,
                              const std::string& workspace) {
  const char* t = cudaTypeName(ops.problem.type).data();
  const int bytes = elemBytes(ops.problem.type);
  const StridedView &q = ops.q, &k = ops.k, &v = ops.v;
  return fmt::format(
      "struct {p}Score {{\n  Buffers b;\n  __device__ __forceinline__ float operator()(int bi, int h, int i, int j, "
      "float dot) const {{\n    const Index x0 = bi, x1 = h, x2 = i, x3 = j;\n{chain}    return {score};\n  }}\n}};\n\n"
      "struct {p}Out {{\n  Buffers b;\n  __device__ __forceinline__ void operator()(int bi, int h, int i, int d, float "
      "v) const {{\n    const Index x0 = bi, x1 = h, x2 = i, x3 = d;\n{out}{stores}  }}\n}};\n\n"
      "__device__ __forceinline__ tcx::AttentionParams {p}params(const Buffers& b) {{\n"
      "  tcx::AttentionParams p;\n"
      "  p.q = {q};\n"
      "  p.qStride[0] = {q0};\n  p.qStride[1] = {q1};\n  p.qStride[2] = {q2};\n  p.qStride[3] = {q3};\n"
      "  p.k = {k};\n"
      "  p.kStride[0] = {k0};\n  p.kStride[1] = {k1};\n  p.kStride[2] = {k2};\n  p.kStride[3] = {k3};\n"
      "  p.v = {v};\n"
      "  p.vStride[0] = {v0};\n  p.vStride[1] = {v1};\n  p.vStride[2] = {v2};\n"
      "  p.batch = {batch};\n  p.heads = {heads};\n  p.kvHeads = {kvHeads};\n  p.sq = {sq};\n  p.skv = {skv};\n"
      "  p.chunkLen = {chunkLen};\n  p.numChunks = {numChunks};\n  p.rowGroups = {rowGroups};\n"
      "  p.emptyRowsZero = {emptyRowsZero};\n"
      "  p.workspace = {ws};\n  return p;\n}}\n\n",
      fmt::arg("p", p), fmt::arg("chain", ops.scoreChain), fmt::arg("score", ops.score), fmt::arg("out", ops.outChain),
      fmt::arg("stores", ops.stores), fmt::arg("q", ModuleBuilder::elementPointer(q.buffer, q.offset, t, bytes)),
      fmt::arg("q0", q.strides[0]), fmt::arg("q1", q.strides[1]), fmt::arg("q2", q.strides[2]),
      fmt::arg("q3", q.strides[3]), fmt::arg("k", ModuleBuilder::elementPointer(k.buffer, k.offset, t, bytes)),
      fmt::arg("k0", k.strides[0]), fmt::arg("k1", k.strides[1]), fmt::arg("k2", k.strides[3]), fmt::arg("k3", k.strides[2]),
      fmt::arg("v", ModuleBuilder::elementPointer(v.buffer, v.offset, t, bytes)), fmt::arg("v0", v.strides[0]),
      fmt::arg("v1", v.strides[1]), fmt::arg("v2", v.strides[2]), fmt::arg("batch", ops.problem.batch),
      fmt::arg("heads", ops.problem.heads), fmt::arg("kvHeads", ops.problem.kvHeads), fmt::arg("sq", ops.problem.sq),
      fmt::arg("skv", ops.problem.skv), fmt::arg("chunkLen", plan.chunkLen), fmt::arg("numChunks", plan.numChunks),
      fmt::arg("rowGroups", plan.rowGroups), fmt::arg("emptyRowsZero", ops.emptyRowsZero ? 1 : 0),
      fmt::arg("ws", workspace));
}

std::string attentionLabel(const AttentionProblem& pr) {
  return fmt::format("attention {}x{}/{} heads, {} queries, {} keys", pr.batch, pr.heads, pr.kvHeads, pr.sq, pr.skv);
}

// 16-bit types: the split-K kernel and its combination (attention.cuh).
void emitSplitKAttention(ValueCode& values, const AttentionOperands& ops, const CodegenTarget& target) {
  const AttentionPlan plan = planAttention(ops.problem, target.smCount);
  ModuleBuilder& module = values.module();
  const std::string p = values.prefix();
  // The partials after the split-K counters of the workspace the GEMMs use.
  const int workspace = module.sharedWorkspace(kSplitKCounterBytes + static_cast<int64_t>(plan.workspaceBytes));
  module.append(
      functorsAndParams(ops, plan.params, p, ModuleBuilder::bufferRef(workspace, kSplitKCounterBytes)) +
      fmt::format("{openPartial}"
                  "  tcx::decode_attention_partial_body<{partialArgs}>({p}params(b), {p}Score{{b}});\n}}\n\n"
                  "{openCombine}"
                  "  tcx::decode_attention_combine_body<{combineArgs}>({p}params(b), {p}Out{{b}});\n}}\n\n",
                  fmt::arg("openPartial", kernelOpening("tcx::kAttentionThreads", p + "attention")),
                  fmt::arg("openCombine", kernelOpening("tcx::kCombineThreads", p + "combine")),
                  fmt::arg("p", p), fmt::arg("partialArgs", attentionTemplateArgs(ops.problem, plan, p + "Score")),
                  fmt::arg("combineArgs", combineTemplateArgs(ops.problem, p + "Out"))));
  module.addLibraryLaunch(values.planKernelIndex(), p + "attention", plan.partial.grid, plan.partial.block,
                          plan.partial.sharedBytes, attentionLabel(ops.problem));
  module.addLibraryLaunch(values.planKernelIndex(), p + "combine", plan.combine.grid, plan.combine.block,
                          plan.combine.sharedBytes, "attention combine");
}

// fp32: one launch of attention_f32.cuh, no workspace.
void emitF32Attention(ValueCode& values, const AttentionOperands& ops) {
  const LaunchConfig launch = planF32Attention(ops.problem);
  ModuleBuilder& module = values.module();
  const std::string p = values.prefix();
  module.append(functorsAndParams(ops, AttentionParams{}, p, "nullptr") +
                fmt::format("{open}"
                            "  tcx::attention_f32_body<{d}, {kt}>({p}params(b), {p}Score{{b}}, {p}Out{{b}});\n}}\n\n",
                            fmt::arg("open", kernelOpening(fmt::format("tcx::kF32AttentionThreads, "
                                                                       "tcx::f32AttentionMinBlocks({})",
                                                                       ops.problem.headDim),
                                                           p + "attention")),
                            fmt::arg("p", p), fmt::arg("d", ops.problem.headDim),
                            fmt::arg("kt", ops.k.strides[2] == 1 ? "false" : "true")));
  module.addLibraryLaunch(values.planKernelIndex(), p + "attention", launch.grid, launch.block, launch.sharedBytes,
                          "fp32 " + attentionLabel(ops.problem));
}

} // namespace

bool emitLibraryAttention(ValueCode& values, const CodegenTarget& target) {
  const PlanKernel& k = values.kernel();
  if (k.fused->kind != KernelKind::Attention) return false;
  std::optional<AttentionPattern> pattern = matchPattern(*k.fused);
  if (!pattern) return false;
  // Check the kernels' shape limits before operands() emits the functors' value code.
  const Value* q = pattern->scores->input(0);
  const Shape& qs = q->type().shape;
  if (qs.size() != 4) return false;
  const int64_t d = qs[3];
  const bool f32 = q->type().dtype == DType::F32;
  const bool half = q->type().dtype == DType::BF16 || q->type().dtype == DType::F16;
  if (!(half && (d == 64 || d == 128 || d == 256)) && !(f32 && d % 8 == 0 && d >= 8 && d <= 128)) return false;
  std::optional<AttentionOperands> ops = operands(values, *pattern);
  if (!ops) return false;
  if (f32)
    emitF32Attention(values, *ops);
  else
    emitSplitKAttention(values, *ops, target);
  return true;
}

} // namespace tcx
