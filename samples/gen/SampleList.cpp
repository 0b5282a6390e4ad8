#include "Samples.h"

namespace tcx::samples {

namespace {

// Mirage's three attention scenarios over 4096 KV tokens.
struct AttentionMode {
  const char* suffix;
  const char* what;
  int64_t queryLen;
};
constexpr AttentionMode kModes[] = {
    {"decode", "incremental decoding, 1 query token", 1},
    {"specdec", "speculative decoding, 32 query tokens", 32},
    {"prefill", "chunked prefill, 512 query tokens", 512},
};

// Mirage Table 4's attention architectures.
struct AttentionArch {
  const char* name;
  const char* what;
  int64_t heads, kvHeads, headDim;
};
constexpr AttentionArch kArchs[] = {
    {"mha", "multi-head attention (LLaMA-7B)", 32, 32, 128},
    {"gqa", "group-query attention (LLaMA-2-70B, one of 4 tensor-parallel shards)", 16, 2, 128},
    {"mqa", "multi-query attention (Falcon-7B)", 71, 1, 64},
};

std::vector<SampleInfo> makeSamples() {
  std::vector<SampleInfo> s = {
      {"llama3_8b_decode", "Llama-3-8B layer at decode, QKV projection to output projection (VTC Fig. 2), bf16",
       [] { return buildLlama3Decode(); }},
      {"llama3_8b_decode_attention",
       "The same layer up to the attention output: the subgraph of the PyTorch baselines (VTC Fig. 2), bf16",
       [] { return buildLlama3Decode({.outputProjection = false}); }},
      {"gemma2_9b_decode", "Gemma-2-9B attention layer at decode with soft-capping and local/global mask, bf16",
       [] { return buildGemma2Decode(); }},
      {"yolov11_c3k2", "YOLOv11 C3K2 block, batch 16, 640 input (VTC Fig. 11), f32", [] { return buildYolov11C3k2(); }},
      {"shufflenet_v2_unit", "ShuffleNet v2 unit: channel split, branch, concat, shuffle, f32",
       [] { return buildShufflenetV2Unit(); }},
      {"efficientvit_attention", "EfficientViT multi-scale linear attention, 4096 tokens (VTC Table 1), f32",
       [] { return buildEfficientVitAttention(); }},
  };
  for (const AttentionArch& arch : kArchs)
    for (const AttentionMode& mode : kModes) {
      std::string name = std::string(arch.name) + "_" + mode.suffix;
      AttentionConfig c;
      c.heads = arch.heads;
      c.kvHeads = arch.kvHeads;
      c.headDim = arch.headDim;
      c.queryLen = mode.queryLen;
      s.push_back({name, std::string(arch.what) + ", " + mode.what + ", 4096 KV tokens, f16",
                   [name, c] { return buildAttention(name, c); }});
    }
  s.push_back({"lora", "LoRA linear layer O = XW + (XA)B, rank 16 (Mirage Fig. 9), f16", [] { return buildLora(); }});
  s.push_back({"gated_mlp", "gated MLP O = SiLU(XW1) * (XW2), f16", [] { return buildGatedMlp(); }});
  s.push_back({"rmsnorm_matmul", "RMSNorm followed by a MatMul, f16", [] { return buildRmsNormMatmul(); }});
  return s;
}

} // namespace

const std::vector<SampleInfo>& allSamples() {
  static const std::vector<SampleInfo> samples = makeSamples();
  return samples;
}

} // namespace tcx::samples
