// Mirage's benchmark workloads (Mirage Table 4): attention variants, LoRA,
// gated MLP, RMSNorm + MatMul.
#include "Layers.h"
#include "Samples.h"

namespace tcx::samples {

Graph buildAttention(const std::string& name, const AttentionConfig& c) {
  GraphBuilder b(name);
  const std::string m = "/attn";
  Value* q = b.input("q", c.dtype, {c.batch, c.heads, c.queryLen, c.headDim});
  Value* kT = b.input("k_t", c.dtype, {c.batch, c.kvHeads, c.headDim, c.kvLen});
  Value* v = b.input("v", c.dtype, {c.batch, c.kvHeads, c.kvLen, c.headDim});
  const int64_t rep = c.heads / c.kvHeads;
  if (rep > 1) { // Repeat K and V to the query heads, as Mirage Figure 4a does.
    auto repeat = [&](Value* t, const std::string& scope) {
      const Shape& s = t->type().shape;
      Value* u = b.op("Unsqueeze", {t, b.ints(scope + "/Unsqueeze_axes", {2})}, {}, scope + "/Unsqueeze");
      Value* e = b.op("Expand", {u, b.ints(scope + "/Expand_shape", {s[0], s[1], rep, s[2], s[3]})}, {}, scope + "/Expand");
      return reshape(b, scope, e, {s[0], s[1] * rep, s[2], s[3]});
    };
    kT = repeat(kT, m + "/repeat_k");
    v = repeat(v, m + "/repeat_v");
  }
  Value* s = b.op("MatMul", {q, kT}, {}, m + "/MatMul");
  Value* e = b.op("Exp", {s}, {}, m + "/Exp");
  Value* z = b.op("ReduceSum", {e, b.ints(m + "/ReduceSum_axes", {-1})}, attrs({{"keepdims", 1}}), m + "/ReduceSum");
  Value* p = b.op("Div", {e, z}, {}, m + "/Div");
  b.output(b.op("MatMul", {p, v}, {}, m + "/MatMul_1"));
  return b.finish();
}

Graph buildLora(const LoraConfig& c) {
  GraphBuilder b("lora");
  const std::string m = "/lora";
  Value* x = b.input("x", c.dtype, {c.tokens, c.in});
  Value* w = b.input("w", c.dtype, {c.in, c.out});
  Value* a = b.input("lora_a", c.dtype, {c.in, c.rank});
  Value* bw = b.input("lora_b", c.dtype, {c.rank, c.out});
  Value* base = b.op("MatMul", {x, w}, {}, m + "/base/MatMul");
  Value* down = b.op("MatMul", {x, a}, {}, m + "/lora_A/MatMul");
  Value* up = b.op("MatMul", {down, bw}, {}, m + "/lora_B/MatMul");
  b.output(b.op("Add", {base, up}, {}, m + "/Add"));
  return b.finish();
}

Graph buildGatedMlp(const GatedMlpConfig& c) {
  GraphBuilder b("gated_mlp");
  const std::string m = "/mlp";
  Value* x = b.input("x", c.dtype, {c.tokens, c.in});
  Value* w1 = b.input("gate_proj", c.dtype, {c.in, c.out});
  Value* w2 = b.input("up_proj", c.dtype, {c.in, c.out});
  Value* gate = silu(b, m + "/act", b.op("MatMul", {x, w1}, {}, m + "/gate_proj/MatMul"));
  Value* up = b.op("MatMul", {x, w2}, {}, m + "/up_proj/MatMul");
  b.output(b.op("Mul", {gate, up}, {}, m + "/Mul"));
  return b.finish();
}

Graph buildRmsNormMatmul(const RmsNormMatmulConfig& c) {
  GraphBuilder b("rmsnorm_matmul");
  Value* x = b.input("x", c.dtype, {c.tokens, c.in});
  Value* gamma = b.input("norm.weight", c.dtype, {c.in});
  Value* w = b.input("w", c.dtype, {c.in, c.out});
  Value* normed = rmsNorm(b, "/norm", x, gamma, c.epsilon);
  b.output(b.op("MatMul", {normed, w}, {}, "/proj/MatMul"));
  return b.finish();
}

} // namespace tcx::samples
