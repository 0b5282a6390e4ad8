#include "Samples.h"

#include "ops/GraphBuilder.h"

#include <string>

namespace tcx::samples {

std::vector<std::pair<std::string, Graph>> reducedSamples() {
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("llama", buildLlama3Decode(reducedLlama(1)));
  graphs.emplace_back("gemma", buildGemma2Decode({2, 16, 48, 4, 2, 8, 50.0f, DType::BF16}));
  graphs.emplace_back("yolo", buildYolov11C3k2({2, 8, 6}));
  graphs.emplace_back("shufflenet", buildShufflenetV2Unit({2, 8, 5}));
  graphs.emplace_back("efficientvit", buildEfficientVitAttention({2, 16, 4, 8, 3}));
  graphs.emplace_back("gqa", buildAttention("gqa", {1, 4, 2, 8, 3, 16, DType::F16}));
  graphs.emplace_back("lora", buildLora({4, 16, 16, 2, DType::F16}));
  graphs.emplace_back("rmsnorm", buildRmsNormMatmul({4, 16, 8, 1e-6f, DType::F16}));
  return graphs;
}

LlamaDecodeConfig reducedLlama(int layers) {
  LlamaDecodeConfig c{2, 24, 64, 4, 2, 16, DType::BF16};
  c.layers = layers;
  c.intermediate = 128;
  return c;
}

Graph buildOpStack(int ops) {
  GraphBuilder b("op_stack_" + std::to_string(ops));
  Value* x = b.input("x", DType::F32, {1, 64});
  Value* weight = b.input("weight", DType::F32, {64, 64});
  Value* shift = b.input("shift", DType::F32, {64});
  static const char* const kCycle[] = {"MatMul", "Add", "Relu", "Sigmoid"};
  for (int i = 0; i < ops; ++i) {
    const std::string type = kCycle[i % 4];
    const std::string scope = "/stack." + std::to_string(i / 100) + "/block." + std::to_string(i / 10);
    std::vector<Value*> inputs{x};
    if (type == "MatMul") inputs.push_back(weight);
    if (type == "Add") inputs.push_back(shift);
    x = b.op(type, inputs, {}, scope + "/" + type + "_" + std::to_string(i));
  }
  b.output(x);
  return b.finish();
}

} // namespace tcx::samples
