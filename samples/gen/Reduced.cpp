#include "Samples.h"

namespace tcx::samples {

std::vector<std::pair<std::string, Graph>> reducedSamples() {
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("llama", buildLlama3Decode({2, 24, 64, 4, 2, 16, DType::BF16}));
  graphs.emplace_back("gemma", buildGemma2Decode({2, 16, 48, 4, 2, 8, 50.0f, DType::BF16}));
  graphs.emplace_back("yolo", buildYolov11C3k2({2, 8, 6}));
  graphs.emplace_back("shufflenet", buildShufflenetV2Unit({2, 8, 5}));
  graphs.emplace_back("efficientvit", buildEfficientVitAttention({2, 16, 4, 8, 3}));
  graphs.emplace_back("gqa", buildAttention("gqa", {1, 4, 2, 8, 3, 16, DType::F16}));
  graphs.emplace_back("lora", buildLora({4, 16, 16, 2, DType::F16}));
  graphs.emplace_back("rmsnorm", buildRmsNormMatmul({4, 16, 8, 1e-6f, DType::F16}));
  return graphs;
}

} // namespace tcx::samples
