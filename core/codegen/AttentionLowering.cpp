#include "codegen/AttentionLowering.h"

#include "codegen/CudaCodegen.h"
#include "codegen/EpilogueCode.h"
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
};

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
    } else if (!(afterSoftmax && !p.output && role == FusionRole::TypeConversion)) {
      // Only casts between the softmax and P V: the kernel keeps P in fp32.
      return std::nullopt;
    }
  }
  if (!p.output || p.output != fused.nodes.back()) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(p.softmax->input(0)->type().shape.size());
  const int64_t axis = p.softmax->attrs().getInt("axis", -1);
  if (axis != -1 && axis != rank - 1) return std::nullopt;
  return p;
}

} // namespace

bool emitLibraryAttention(ValueCode& values, const CodegenTarget& target) {
  const PlanKernel& k = values.kernel();
  if (k.fused->kind != KernelKind::Attention) return false;
  std::optional<AttentionPattern> pattern = matchPattern(*k.fused);
  if (!pattern) return false;
  const Value *q = pattern->scores->input(0), *kt = pattern->scores->input(1), *v = pattern->output->input(1);
  const Value* out = pattern->output->output(0);
  const Shape &qs = q->type().shape, &ks = kt->type().shape, &vs = v->type().shape;
  if (qs.size() != 4 || ks.size() != 4 || vs.size() != 4) return false;
  const DType dtype = q->type().dtype;
  if ((dtype != DType::BF16 && dtype != DType::F16) || kt->type().dtype != dtype || v->type().dtype != dtype)
    return false;
  const int64_t batch = qs[0], heads = qs[1], sq = qs[2], d = qs[3], skv = ks[3];
  if (d != 64 && d != 128 && d != 256) return false;
  const TensorAccess *qa = values.inputAccess(q), *ka = values.inputAccess(kt), *va = values.inputAccess(v);
  if (!qa || !ka || !va) return false;
  std::optional<StridedView> qv = stridedView(*qa);
  // The largest group of query heads that share one K and V head.
  std::optional<StridedView> kv, vv;
  int64_t group = heads;
  for (; group >= 1; --group) {
    if (heads % group) continue;
    kv = stridedView(*ka, 1, group);
    vv = stridedView(*va, 1, group);
    if (kv && vv) break;
  }
  if (!qv || !kv || !vv || kv->strides[2] != 1 || vv->strides[3] != 1) return false;

  std::optional<std::string> scoreChain = chainCode(values, pattern->scores->output(0), "dot", pattern->scoreOps);
  if (!scoreChain) return false;
  const std::string score = values.call(pattern->softmax->input(0), {});
  std::optional<std::string> outChain = chainCode(values, out, "v", {});
  std::optional<std::string> stores = storeCode(values, out, {});
  if (!outChain || !stores) return false;

  AttentionProblem problem;
  problem.type = dtype == DType::BF16 ? ElemType::BF16 : ElemType::F16;
  problem.batch = static_cast<int>(batch);
  problem.heads = static_cast<int>(heads);
  problem.kvHeads = static_cast<int>(heads / group);
  problem.sq = static_cast<int>(sq);
  problem.skv = static_cast<int>(skv);
  problem.headDim = static_cast<int>(d);
  const AttentionPlan plan = planAttention(problem, target.smCount);
  ModuleBuilder& module = values.module();
  const std::string p = values.prefix();
  // The partials after the split-K counters of the workspace the GEMMs use.
  const int workspace = module.sharedWorkspace(kSplitKCounterBytes + static_cast<int64_t>(plan.workspaceBytes));
  const char* t = cudaTypeName(problem.type).data();
  const int bytes = elemBytes(problem.type);
  const AttentionParams& ap = plan.params;

  module.append(fmt::format(
      "struct {p}Score {{\n  Buffers b;\n  __device__ __forceinline__ float operator()(int bi, int h, int i, int j, "
      "float dot) const {{\n    const Index x0 = bi, x1 = h, x2 = i, x3 = j;\n{chain}    return {score};\n  }}\n}};\n\n"
      "struct {p}Out {{\n  Buffers b;\n  __device__ __forceinline__ void operator()(int bi, int h, int i, int d, float "
      "v) const {{\n    const Index x0 = bi, x1 = h, x2 = i, x3 = d;\n{out}{stores}  }}\n}};\n\n"
      "__device__ __forceinline__ tcx::AttentionParams {p}params(const Buffers& b) {{\n"
      "  tcx::AttentionParams p;\n"
      "  p.q = {q};\n"
      "  p.qStride[0] = {q0};\n  p.qStride[1] = {q1};\n  p.qStride[2] = {q2};\n  p.qStride[3] = {q3};\n"
      "  p.k = {k};\n"
      "  p.kStride[0] = {k0};\n  p.kStride[1] = {k1};\n  p.kStride[2] = {k2};\n"
      "  p.v = {v};\n"
      "  p.vStride[0] = {v0};\n  p.vStride[1] = {v1};\n  p.vStride[2] = {v2};\n"
      "  p.batch = {batch};\n  p.heads = {heads};\n  p.kvHeads = {kvHeads};\n  p.sq = {sq};\n  p.skv = {skv};\n"
      "  p.chunkLen = {chunkLen};\n  p.numChunks = {numChunks};\n  p.rowGroups = {rowGroups};\n"
      "  p.workspace = {ws};\n  return p;\n}}\n\n"
      "extern \"C\" __global__ void __launch_bounds__(tcx::kAttentionThreads) {p}attention(Buffers b) {{\n"
      "  tcx::decode_attention_partial_body<{partialArgs}>({p}params(b), {p}Score{{b}});\n}}\n\n"
      "extern \"C\" __global__ void __launch_bounds__(tcx::kCombineThreads) {p}combine(Buffers b) {{\n"
      "  tcx::decode_attention_combine_body<{combineArgs}>({p}params(b), {p}Out{{b}});\n}}\n\n",
      fmt::arg("p", p), fmt::arg("chain", *scoreChain), fmt::arg("score", score), fmt::arg("out", *outChain),
      fmt::arg("stores", *stores), fmt::arg("q", ModuleBuilder::elementPointer(qv->buffer, qv->offset, t, bytes)),
      fmt::arg("q0", qv->strides[0]), fmt::arg("q1", qv->strides[1]), fmt::arg("q2", qv->strides[2]),
      fmt::arg("q3", qv->strides[3]), fmt::arg("k", ModuleBuilder::elementPointer(kv->buffer, kv->offset, t, bytes)),
      fmt::arg("k0", kv->strides[0]), fmt::arg("k1", kv->strides[1]), fmt::arg("k2", kv->strides[3]),
      fmt::arg("v", ModuleBuilder::elementPointer(vv->buffer, vv->offset, t, bytes)), fmt::arg("v0", vv->strides[0]),
      fmt::arg("v1", vv->strides[1]), fmt::arg("v2", vv->strides[2]), fmt::arg("batch", ap.batch),
      fmt::arg("heads", ap.heads), fmt::arg("kvHeads", ap.kvHeads), fmt::arg("sq", ap.sq), fmt::arg("skv", ap.skv),
      fmt::arg("chunkLen", ap.chunkLen), fmt::arg("numChunks", ap.numChunks), fmt::arg("rowGroups", ap.rowGroups),
      fmt::arg("ws", ModuleBuilder::bufferRef(workspace, kSplitKCounterBytes)), fmt::arg("partialArgs", attentionTemplateArgs(problem, plan, p + "Score")),
      fmt::arg("combineArgs", combineTemplateArgs(problem, p + "Out"))));

  module.addLibraryLaunch(values.planKernelIndex(), p + "attention", plan.partial.grid, plan.partial.block,
                   plan.partial.sharedBytes,
                   fmt::format("attention {}x{}/{} heads, {} queries, {} keys", batch, heads, heads / group, sq, skv));
  module.addLibraryLaunch(values.planKernelIndex(), p + "combine", plan.combine.grid, plan.combine.block,
                   plan.combine.sharedBytes, "attention combine");
  return true;
}

} // namespace tcx
