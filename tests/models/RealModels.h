#pragma once
// The real-model suite (models/real, written by models/real/export.py):
// PyTorch exports of transformers and torchvision models, each by the
// TorchScript and the dynamo exporter where the exporter works, at two
// sizes. Shared by the CPU test and the GPU test.

#include <string>
#include <vector>

namespace tcx::test {

struct RealModel {
  std::string name;     // "llama3"
  std::string kind;     // decoder, encoder, cnn, vit, decode
  std::string what;     // what the model brings: "grouped-query attention, RoPE"
  std::string exporter; // torchscript or dynamo
  std::string path;     // the .onnx file
};

// The exports listed in models/real/manifest.<size>.json ("small" or
// "full"), those the exporter wrote (status ok).
std::vector<RealModel> realModels(const std::string& size);

} // namespace tcx::test
