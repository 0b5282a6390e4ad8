// CUDA code generation from plans, checked without a GPU: which launches a
// plan becomes and what the mapping functions turn into. GPU execution is
// checked against the CPU reference in tests/gpu.
#include "Samples.h"

#include "codegen/CudaCodegen.h"
#include "pipeline/VtcSession.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

using namespace tcx;

namespace {

size_t countLaunches(const GeneratedPlan& g, const std::string& prefix) {
  size_t n = 0;
  for (const GeneratedLaunch& l : g.launches) n += l.what.rfind(prefix, 0) == 0;
  return n;
}

} // namespace

TEST_CASE("llama decode: the optimized plan's kernels read the caches through mapping functions", "[codegen]") {
  VtcSession s(samples::buildLlama3Decode({2, 24, 64, 4, 2, 16, DType::BF16}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan baseline = generateCuda(s.baselinePlan());
  GeneratedPlan optimized = generateCuda(s.optimizedPlan());
  CHECK(countLaunches(baseline, "copy") > 0);
  CHECK(countLaunches(optimized, "copy") == 0);
  CHECK(optimized.launches.size() < baseline.launches.size());
  // The projection's store splits its columns between Q and the two caches.
  CHECK(optimized.source.find("tcx::inRange") != std::string::npos);
  CHECK(optimized.numPlanBuffers == s.optimizedPlan().buffers.size());
  if (const char* dir = std::getenv("TCX_DUMP_CUDA")) std::ofstream(std::string(dir) + "/llama.cu") << optimized.source;
}

TEST_CASE("every sample's plans generate CUDA", "[codegen]") {
  for (const char* name : {"yolo", "shufflenet", "efficientvit", "gemma", "llama64"}) {
    SECTION(name) {
      Graph g = std::string(name) == "yolo"         ? samples::buildYolov11C3k2({2, 8, 6})
                : std::string(name) == "shufflenet" ? samples::buildShufflenetV2Unit({2, 8, 5})
                : std::string(name) == "gemma" ? samples::buildGemma2Decode({2, 16, 48, 4, 2, 8, 50.0f, DType::BF16})
                : std::string(name) == "llama64" ? samples::buildLlama3Decode({2, 80, 256, 4, 2, 64, DType::BF16})
                                               : samples::buildEfficientVitAttention({2, 16, 4, 8, 3});
      VtcSession s(std::move(g), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      GeneratedPlan optimized = generateCuda(s.optimizedPlan());
      CHECK_FALSE(optimized.launches.empty());
      if (const char* dir = std::getenv("TCX_DUMP_CUDA")) {
        std::ofstream(std::string(dir) + "/" + name + ".cu") << optimized.source;
        std::ofstream(std::string(dir) + "/" + name + "_base.cu") << generateCuda(s.baselinePlan()).source;
      }
    }
  }
}
