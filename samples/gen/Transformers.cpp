// The LLM decode samples: Llama-3-8B (VTC Figure 2) and Gemma-2-9B.
#include "Layers.h"
#include "Samples.h"

#include <cmath>

namespace tcx::samples {

namespace {

// The decode step's common front: fused QKV projection, Split, per-head
// Reshapes and the functional cache update at the last position (ScatterND
// with [b, pos] indices), then the Slice of the cache up to pos + 1. Its
// weights and caches are named `prefix` + "w_qkv" and so on.
struct DecodeFront {
  Value *q, *keys, *values, *kCacheOut, *vCacheOut;
};

DecodeFront buildDecodeFront(GraphBuilder& b, const std::string& attn, const std::string& prefix, Value* x, int64_t batch,
                             int64_t context, int64_t hidden, int64_t heads, int64_t kvHeads, int64_t headDim, DType dtype) {
  int64_t qDim = heads * headDim, kvDim = kvHeads * headDim;
  Value* wqkv = b.input(prefix + "w_qkv", dtype, {hidden, qDim + 2 * kvDim});
  Value* kCache = b.input(prefix + "k_cache", dtype, {batch, context, kvHeads, headDim});
  Value* vCache = b.input(prefix + "v_cache", dtype, {batch, context, kvHeads, headDim});

  Value* qkv = b.op("MatMul", {x, wqkv}, {}, attn + "/qkv_proj/MatMul");
  std::vector<Value*> parts =
      b.ops("Split", {qkv, b.ints(attn + "/Split_sizes", {qDim, kvDim, kvDim})}, attrs({{"axis", -1}}), 3, attn + "/Split");
  Value* q = reshape(b, attn + "/q", parts[0], {batch, 1, heads, headDim});
  Value* k = reshape(b, attn + "/k", parts[1], {batch, 1, kvHeads, headDim});
  Value* v = reshape(b, attn + "/v", parts[2], {batch, 1, kvHeads, headDim});

  const int64_t pos = context - 1;
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < batch; ++i) idx.insert(idx.end(), {i, pos});
  Value* indices = b.constant(attn + "/cache_update_indices", Tensor::fromVector<int64_t>({batch, 1, 2}, idx));
  Value* kOut = b.op("ScatterND", {kCache, indices, k}, {}, attn + "/k_cache/ScatterND");
  Value* vOut = b.op("ScatterND", {vCache, indices, v}, {}, attn + "/v_cache/ScatterND");

  auto slice = [&](Value* cache, const std::string& scope) {
    return b.op("Slice", {cache, b.ints(scope + "/Slice_starts", {0}), b.ints(scope + "/Slice_ends", {pos + 1}),
                          b.ints(scope + "/Slice_axes", {1})},
                {}, scope + "/Slice");
  };
  Value* keys = repeatKv(b, attn + "/repeat_k", slice(kOut, attn + "/k_cache"), heads / kvHeads);
  Value* values = repeatKv(b, attn + "/repeat_v", slice(vOut, attn + "/v_cache"), heads / kvHeads);
  return {q, keys, values, kOut, vOut};
}

// One Llama self-attention block at decode, scoped `attn` ("/model/layers.N/self_attn").
struct LlamaAttention {
  Value *out, *kCacheOut, *vCacheOut;
};

LlamaAttention buildLlamaAttention(GraphBuilder& b, const LlamaDecodeConfig& c, const std::string& attn,
                                   const std::string& prefix, Value* x) {
  DecodeFront f = buildDecodeFront(b, attn, prefix, x, c.batch, c.context, c.hidden, c.heads, c.kvHeads, c.headDim, c.dtype);
  Value* wo = c.outputProjection ? b.input(prefix + "w_o", c.dtype, {c.heads * c.headDim, c.hidden}) : nullptr;

  Value* q = transpose(b, attn + "/q", f.q, {0, 2, 1, 3});         // [B,H,1,D]
  Value* kT = transpose(b, attn + "/k", f.keys, {0, 2, 3, 1});     // [B,H,D,S]
  Value* v = transpose(b, attn + "/v", f.values, {0, 2, 1, 3});    // [B,H,S,D]
  Value* scores = b.op("MatMul", {q, kT}, {}, attn + "/MatMul");
  scores = b.op("Div", {scores, scalar(b, attn + "/scale", c.dtype, std::sqrt(double(c.headDim)))}, {}, attn + "/Div");
  Value* probs = softmaxInFloat(b, attn, scores);
  Value* out = b.op("MatMul", {probs, v}, {}, attn + "/MatMul_1"); // [B,H,1,D]
  out = transpose(b, attn + "/o", out, {0, 2, 1, 3});
  out = reshape(b, attn + "/o", out, {c.batch, 1, c.heads * c.headDim});
  return {wo ? b.op("MatMul", {out, wo}, {}, attn + "/o_proj/MatMul") : out, f.kCacheOut, f.vCacheOut};
}

// A whole decoder layer as PyTorch exports it: RMSNorm, attention, residual,
// RMSNorm, gated SiLU MLP, residual; the layer's caches become outputs.
Value* buildLlamaLayer(GraphBuilder& b, const LlamaDecodeConfig& c, int layer, Value* x) {
  const std::string scope = "/model/layers." + std::to_string(layer);
  const std::string prefix = "layers." + std::to_string(layer) + ".";
  constexpr double kEpsilon = 1e-5;
  Value* inputNorm = b.input(prefix + "input_layernorm.weight", c.dtype, {c.hidden});
  Value* h = rmsNorm(b, scope + "/input_layernorm", x, inputNorm, kEpsilon);
  LlamaAttention a = buildLlamaAttention(b, c, scope + "/self_attn", prefix, h);
  b.output(a.kCacheOut);
  b.output(a.vCacheOut);
  x = b.op("Add", {x, a.out}, {}, scope + "/Add");

  Value* postNorm = b.input(prefix + "post_attention_layernorm.weight", c.dtype, {c.hidden});
  Value* wGate = b.input(prefix + "mlp.gate_proj.weight", c.dtype, {c.hidden, c.intermediate});
  Value* wUp = b.input(prefix + "mlp.up_proj.weight", c.dtype, {c.hidden, c.intermediate});
  Value* wDown = b.input(prefix + "mlp.down_proj.weight", c.dtype, {c.intermediate, c.hidden});
  const std::string mlp = scope + "/mlp";
  h = rmsNorm(b, scope + "/post_attention_layernorm", x, postNorm, kEpsilon);
  Value* gate = silu(b, mlp + "/act_fn", b.op("MatMul", {h, wGate}, {}, mlp + "/gate_proj/MatMul"));
  Value* up = b.op("MatMul", {h, wUp}, {}, mlp + "/up_proj/MatMul");
  Value* down = b.op("MatMul", {b.op("Mul", {gate, up}, {}, mlp + "/Mul"), wDown}, {}, mlp + "/down_proj/MatMul");
  return b.op("Add", {x, down}, {}, scope + "/Add_1");
}

} // namespace

Graph buildLlama3Decode(const LlamaDecodeConfig& c) {
  if (c.layers > 1) {
    GraphBuilder b("llama3_8b_decode_" + std::to_string(c.layers) + "_layers");
    Value* x = b.input("x", c.dtype, {c.batch, 1, c.hidden});
    for (int layer = 0; layer < c.layers; ++layer) x = buildLlamaLayer(b, c, layer, x);
    b.output(rmsNorm(b, "/model/norm", x, b.input("norm.weight", c.dtype, {c.hidden}), 1e-5));
    return b.finish();
  }
  GraphBuilder b(c.outputProjection ? "llama3_8b_decode" : "llama3_8b_decode_attention");
  Value* x = b.input("x", c.dtype, {c.batch, 1, c.hidden});
  LlamaAttention a = buildLlamaAttention(b, c, "/model/layers.0/self_attn", "", x);
  b.output(a.out);
  b.output(a.kCacheOut);
  b.output(a.vCacheOut);
  return b.finish();
}

Graph buildGemma2Decode(const GemmaDecodeConfig& c) {
  GraphBuilder b("gemma2_9b_decode");
  const std::string attn = "/model/layers.0/self_attn";
  Value* x = b.input("x", c.dtype, {c.batch, 1, c.hidden});
  // The sliding-window (local) or causal (global) mask, added to the scores.
  Value* mask = b.input("attention_mask", DType::F32, {c.batch, 1, 1, c.context});
  DecodeFront f = buildDecodeFront(b, attn, "", x, c.batch, c.context, c.hidden, c.heads, c.kvHeads, c.headDim, c.dtype);
  Value* wo = b.input("w_o", c.dtype, {c.heads * c.headDim, c.hidden});

  Value* q = transpose(b, attn + "/q", f.q, {0, 2, 1, 3});
  // Gemma 2 scales queries by query_pre_attn_scalar^-1/2 before the product.
  q = b.op("Mul", {q, scalar(b, attn + "/query_scale", c.dtype, 1.0 / std::sqrt(double(c.headDim)))}, {}, attn + "/Mul");
  Value* kT = transpose(b, attn + "/k", f.keys, {0, 2, 3, 1});
  Value* v = transpose(b, attn + "/v", f.values, {0, 2, 1, 3});
  Value* scores = b.op("MatMul", {q, kT}, {}, attn + "/MatMul");
  // Attention-logit soft-capping: softcap * tanh(scores / softcap).
  Value* capped = b.op("Div", {scores, scalar(b, attn + "/softcap", c.dtype, c.softcap)}, {}, attn + "/softcap/Div");
  capped = b.op("Tanh", {capped}, {}, attn + "/softcap/Tanh");
  capped = b.op("Mul", {capped, scalar(b, attn + "/softcap_1", c.dtype, c.softcap)}, {}, attn + "/softcap/Mul");
  Value* scoresF = b.op("Cast", {capped}, attrs({{"to", dtypeToOnnx(DType::F32)}}), attn + "/Cast");
  scoresF = b.op("Add", {scoresF, mask}, {}, attn + "/mask/Add");
  Value* probs = b.op("Softmax", {scoresF}, attrs({{"axis", -1}}), attn + "/Softmax");
  probs = b.op("Cast", {probs}, attrs({{"to", dtypeToOnnx(c.dtype)}}), attn + "/Cast_1");
  Value* out = b.op("MatMul", {probs, v}, {}, attn + "/MatMul_1");
  out = transpose(b, attn + "/o", out, {0, 2, 1, 3});
  out = reshape(b, attn + "/o", out, {c.batch, 1, c.heads * c.headDim});
  Value* y = b.op("MatMul", {out, wo}, {}, attn + "/o_proj/MatMul");

  b.output(y);
  b.output(f.kCacheOut);
  b.output(f.vCacheOut);
  return b.finish();
}

} // namespace tcx::samples
