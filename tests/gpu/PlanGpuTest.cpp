// Plans on the GPU against the CPU reference executor (support/GpuCheck.h):
// every sample at reduced shapes, baseline and optimised plans.
#include "Samples.h"
#include "support/GpuCheck.h"

#include "ops/GraphBuilder.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

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
      test::requirePlansMatchReference(std::move(graph), 11);
    }
  }
}

// The same plans with every GEMM and convolution on cuBLAS or cuDNN and the
// kernel's epilogue after it (codegen/VendorCall.h): the strided conv reads a
// channel slice, the Llama GEMMs write through in-place cache mappings.
TEST_CASE("every sample's plans match the reference with vendor library calls", "[gpu][vendor]") {
  for (auto& [name, graph] : gpuSamples()) {
    SECTION(name) {
      test::requirePlansMatchReference(std::move(graph), 13, VendorPolicy::Always);
    }
  }
}

// Measuring picks a form for each alternative and the plan still matches:
// whatever mix of generated kernels and library calls it chose.
TEST_CASE("a plan whose forms were chosen by measurement matches the reference", "[gpu][vendor]") {
  for (auto& [name, graph] : gpuSamples()) {
    if (name != "conv-dense" && name != "llama64") continue;
    SECTION(name) {
      test::requirePlansMatchReference(std::move(graph), 17, VendorPolicy::Measure);
    }
  }
}
