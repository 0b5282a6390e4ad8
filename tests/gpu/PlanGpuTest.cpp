// Plans on the GPU against the CPU reference executor: every sample at
// reduced shapes, baseline and optimised plans, fresh random inputs,
// outputs poisoned before the run, tolerances per dtype.
#include "Samples.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/RandomInputs.h"
#include "ops/GraphBuilder.h"
#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"
#include "profiler/GpuPlan.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

// GPU and CPU differ in summation order, in transcendental functions and in
// where attention rounds P; errors are measured on the scale of the output
// (exec/Compare.h), a few roundings of its dtype. Float convolutions run on
// tf32 tensor cores (operands rounded to f16's 10-bit mantissa, as cuDNN's
// default), so plans with them get f16's tolerance.
double tolerance(DType t, bool tf32) {
  switch (t) {
  case DType::BF16: return 2e-2;
  case DType::F16: return 4e-3;
  case DType::F32: return tf32 ? 4e-3 : 1e-4;
  default: return 0;
  }
}

bool hasConv(const Graph& g) {
  for (const Node* node : g.nodes())
    if (node->opType() == "Conv") return true;
  return false;
}

void requireMatchesReference(const VtcSession& s, const ExecPlan& plan, uint64_t seed) {
  auto inputs = randomInputs(s.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
  gpu::NvrtcCompiler compiler;
  gpu::GpuPlan onGpu(plan, generateCuda(plan), compiler);
  onGpu.setInputs(inputs);
  onGpu.poison();
  std::vector<Tensor> got = onGpu.run();
  REQUIRE(got.size() == ref.outputs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << s.graph().outputs()[i]->name());
    CHECK(scaledError(got[i], ref.outputs[i]) <= tolerance(got[i].dtype(), hasConv(s.graph())));
  }
}

// A strided, dilated, unevenly padded convolution with bias, reading a
// channel slice of its input, with a ragged tile edge in every dimension of
// its implicit GEMM (pixels, channels and K): conv_implicit_gemm's general path.
Graph stridedConv(DType dtype) {
  GraphBuilder b("strided_conv");
  Value* x = b.input("x", dtype, {3, 20, 23, 19});
  Value* w = b.input("w", dtype, {70, 12, 3, 2});
  Value* bias = b.input("bias", dtype, {70});
  Value* slice = b.op("Slice", {x, b.ints("starts", {8}), b.ints("ends", {20}), b.ints("axes", {1})});
  Value* y = b.op("Conv", {slice, w, bias},
                  attrs({{"kernel_shape", std::vector<int64_t>{3, 2}},
                         {"strides", std::vector<int64_t>{2, 1}},
                         {"dilations", std::vector<int64_t>{2, 1}},
                         {"pads", std::vector<int64_t>{1, 0, 2, 1}}}));
  b.output(b.op("Relu", {y}));
  return b.finish();
}

// A 3x3 "same" convolution over a dense input whose rows are 16-byte runs:
// the staged path's 16-byte copies, with halo and ragged tiles (36 columns,
// 70 output channels, 20 input channels: a partial channel chunk).
Graph denseConv() {
  GraphBuilder b("dense_conv");
  Value* x = b.input("x", DType::F32, {2, 20, 13, 36});
  Value* w = b.input("w", DType::F32, {70, 20, 3, 3});
  b.output(b.op("Conv", {x, w}, attrs({{"kernel_shape", std::vector<int64_t>{3, 3}},
                                          {"pads", std::vector<int64_t>{1, 1, 1, 1}}})));
  return b.finish();
}

// The reduced samples, Llama at head dim 64 with 16-row decode GEMMs, a
// general convolution per dtype and a dense one: the library attention, GEMM and convolution
// paths.
std::vector<std::pair<std::string, Graph>> gpuSamples() {
  std::vector<std::pair<std::string, Graph>> graphs = samples::reducedSamples();
  graphs.emplace_back("llama64", samples::buildLlama3Decode({16, 300, 512, 8, 2, 64, DType::BF16}));
  graphs.emplace_back("llama64-f16", samples::buildLlama3Decode({3, 130, 256, 4, 1, 64, DType::F16}));
  for (DType dtype : {DType::F32, DType::F16, DType::BF16})
    graphs.emplace_back("conv-" + std::string(dtypeName(dtype)), stridedConv(dtype));
  graphs.emplace_back("conv-dense", denseConv());
  return graphs;
}

} // namespace

TEST_CASE("every sample's baseline and optimised plans match the reference on the GPU", "[gpu]") {
  for (auto& [name, graph] : gpuSamples()) {
    SECTION(name) {
      VtcSession s(std::move(graph), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      {
        INFO("baseline plan");
        requireMatchesReference(s, s.baselinePlan(), 11);
      }
      INFO("optimised plan");
      requireMatchesReference(s, s.optimizedPlan(), 12);
    }
  }
}
