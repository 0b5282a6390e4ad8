#pragma once
// The bundled sample workloads, built from the papers' shapes. Each builder
// takes a config whose defaults are the paper's shapes; tests and GPU checks
// build reduced versions from the same code. Weights are graph inputs, so
// the .onnx files stay small.

#include "ir/Graph.h"

#include <functional>
#include <string>
#include <vector>

namespace tcx::samples {

// VTC Figure 2: one Llama-3-8B layer at decode, QKV projection to output
// projection, with the functional KV-cache update (ScatterND) and GQA
// replication (Unsqueeze/Expand/Reshape) a PyTorch export produces.
struct LlamaDecodeConfig {
  int64_t batch = 16, context = 4096, hidden = 4096, heads = 32, kvHeads = 8, headDim = 128;
  DType dtype = DType::BF16;
  // Without it the graph ends at the attention output, the subgraph the
  // PyTorch baselines (shared/bench/torch_baselines.py) measure.
  bool outputProjection = true;
  // More than one: whole decoder layers (RMSNorm, attention, gated MLP,
  // residuals) named /model/layers.N/... like PyTorch's export, each with
  // its own weights and caches, then the final norm; about 47 ops a layer,
  // so 22 layers make a 1,000-op model for the explorer's timing.
  int layers = 1;
  int64_t intermediate = 14336; // MLP width, with layers > 1
};
Graph buildLlama3Decode(const LlamaDecodeConfig& c = {});

// Gemma-2-9B attention layer at decode: GQA, logit soft-capping and the
// local/global attention mask as an input.
struct GemmaDecodeConfig {
  int64_t batch = 16, context = 4096, hidden = 3584, heads = 16, kvHeads = 8, headDim = 256;
  float softcap = 50.0f;
  DType dtype = DType::BF16;
};
Graph buildGemma2Decode(const GemmaDecodeConfig& c = {});

// YOLOv11 C3K2 block (VTC Figure 11): conv, Split, bottleneck, Concat, conv.
struct C3k2Config {
  int64_t batch = 16, channels = 64, size = 160; // 640x640 input -> 160x160 maps
};
Graph buildYolov11C3k2(const C3k2Config& c = {});

// ShuffleNet v2 unit (stride 1): channel split, branch, concat, shuffle.
struct ShuffleUnitConfig {
  int64_t batch = 16, channels = 116, size = 28;
};
Graph buildShufflenetV2Unit(const ShuffleUnitConfig& c = {});

// EfficientViT lite multi-scale linear attention (VTC Table 1, 4096 tokens).
struct EfficientVitConfig {
  int64_t batch = 16, channels = 256, size = 64, headDim = 32, scaleKernel = 5;
};
Graph buildEfficientVitAttention(const EfficientVitConfig& c = {});

// Mirage's attention benchmarks (Figure 4a form: MatMul, Exp, Sum, Div,
// MatMul with K/V replicated to the query heads), 4096 KV tokens.
struct AttentionConfig {
  int64_t batch = 1, heads = 32, kvHeads = 32, headDim = 128, queryLen = 1, kvLen = 4096;
  DType dtype = DType::F16;
};
Graph buildAttention(const std::string& name, const AttentionConfig& c);

// Mirage's LoRA: O = X W + (X A) B.
struct LoraConfig {
  int64_t tokens = 8, in = 4096, out = 4096, rank = 16;
  DType dtype = DType::F16;
};
Graph buildLora(const LoraConfig& c = {});

// Gated MLP: O = SiLU(X W1) * (X W2).
struct GatedMlpConfig {
  int64_t tokens = 8, in = 4096, out = 4096;
  DType dtype = DType::F16;
};
Graph buildGatedMlp(const GatedMlpConfig& c = {});

// RMSNorm (as Pow/ReduceMean/Add/Sqrt/Div/Mul, the way exports write it)
// followed by a MatMul.
struct RmsNormMatmulConfig {
  int64_t tokens = 8, in = 4096, out = 4096;
  float epsilon = 1e-6f;
  DType dtype = DType::F16;
};
Graph buildRmsNormMatmul(const RmsNormMatmulConfig& c = {});

struct SampleInfo {
  std::string name;        // file stem under samples/
  std::string description; // one line, for --list and the explorer
  std::function<Graph()> build;
};

// Every bundled sample at its paper shapes, in a stable order.
const std::vector<SampleInfo>& allSamples();

// Every sample at shapes small enough for the CPU reference in tests, named
// "llama", "gemma", "yolo", ...: the same graphs, so every rule, plan and
// kernel path the full sizes take is exercised.
std::vector<std::pair<std::string, Graph>> reducedSamples();

// Llama-3 decode at reduced shapes (the tests' "llama") with `layers`
// layers: about 45 ops a layer, so 22 layers make a 1,000-op model and 220 a
// 10,000-op one, for the explorers' large-model tests.
LlamaDecodeConfig reducedLlama(int layers);

// `ops` ops (MatMul, Add, Relu, Sigmoid in turn) in a chain, ten to a
// "/stack.S/block.B" scope: a graph of any size with no data movement and
// small fused kernels, so that drawing it, not optimising it, is what a
// large-graph test times.
Graph buildOpStack(int ops);

} // namespace tcx::samples
