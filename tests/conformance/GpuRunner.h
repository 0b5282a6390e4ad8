#pragma once
// onnx_conformance --gpu: a node test's model as tcx's plans on the GPU.
// GpuRunner.cpp runs them; in a build without the CUDA toolkit,
// GpuRunnerUnavailable.cpp says so.

#include "ir/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcx::conformance {

// The outputs one way of running a model gave ("reference", "baseline
// plan", "optimised plan"), in graph output order.
struct EngineOutputs {
  std::string engine;
  std::vector<Tensor> outputs;
};

// Why plans cannot run on a GPU here, or nullopt when they can.
std::optional<std::string> gpuUnavailable();

// The baseline plan and the VTC-optimised plan of `graph` (every profitable
// virtual tensor accepted), each generated as CUDA, compiled with NVRTC and
// run on the device with its outputs poisoned first. Safe to call from
// several threads at once.
std::vector<EngineOutputs> runPlansOnGpu(Graph graph, const std::map<std::string, Tensor>& inputs);

} // namespace tcx::conformance
