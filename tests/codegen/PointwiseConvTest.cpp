// Float pointwise convolutions as tf32 GEMMs on gemm_wgmma_f32 (GemmLowering's
// matchTf32PointwiseConv): which convolutions take it, what the launch reads,
// and that cuDNN stays on offer. compute_op_gpu_test runs "Conv pointwise"
// (which reaches it) against the CPU reference on a GPU.
#include "CodegenTestUtil.h"

#include "codegen/CudaCodegen.h"
#include "codegen/SlotBinding.h"
#include "codegen/VendorCall.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"
#include "tcx/launch.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>

using namespace tcx;
using namespace tcx::test;

namespace {

// Four convolutions: a 1x1 with bias and Relu at 56 x 56 (the GEMM's case), one over
// 7 x 7 (49-float rows, which wgmma's float4s cannot read), one into 32
// channels (a quarter of a wgmma tile) and a 3x3 (no GEMM).
Graph convolutions() {
  GraphBuilder b("pointwise");
  // Computed, so that a channels-last plan stores it so.
  Value* x = b.op("Abs", {b.input("x", DType::F32, {2, 64, 56, 56})});
  b.output(b.op("Relu", {b.op("Conv", {x, b.input("w", DType::F32, {128, 64, 1, 1}), b.input("bias", DType::F32, {128})})}));
  b.output(b.op("Conv", {b.input("small", DType::F32, {2, 64, 7, 7}), b.input("w7", DType::F32, {128, 64, 1, 1})}));
  b.output(b.op("Conv", {x, b.input("narrow", DType::F32, {32, 64, 1, 1})}));
  b.output(b.op("Conv", {x, b.input("w3", DType::F32, {128, 64, 3, 3})},
                attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}})));
  return b.finish();
}

// A dense block of `layers` layers as DenseNet's, at 8 images of 56 x 56
// (enough tiles that no GEMM splits K): each concatenates the
// block's input (a ReLU here) and every layer's 32 new channels so far, applies BN-ReLU,
// a 1x1 convolution to 128 channels (K grows by 32 a layer) and a 3x3 to 32.
Graph denseBlock(int layers) {
  GraphBuilder b("dense_block");
  // Computed, as a transition's pooling is, so that it can be stored into the block's concatenation.
  std::vector<Value*> features{b.op("Relu", {b.input("x", DType::F32, {8, 64, 56, 56})})};
  for (int i = 0; i < layers; ++i) {
    const std::string n = std::to_string(i);
    const int64_t channels = 64 + 32 * i;
    Value* in = features.size() == 1 ? features[0] : b.op("Concat", features, attrs({{"axis", int64_t{1}}}));
    std::vector<Value*> bn{in};
    for (const char* name : {"scale", "bias", "mean", "var"}) bn.push_back(b.input(name + n, DType::F32, {channels}));
    Value* h = b.op("Conv", {b.op("Relu", {b.op("BatchNormalization", bn)}),
                             b.input("w" + n, DType::F32, {128, channels, 1, 1})});
    features.push_back(b.op("Conv", {b.op("Relu", {h}), b.input("v" + n, DType::F32, {32, 128, 3, 3})},
                            attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}})));
  }
  b.output(b.op("Concat", features, attrs({{"axis", int64_t{1}}})));
  return b.finish();
}

} // namespace

TEST_CASE("a float pointwise convolution over channels-last pixels runs as a tf32 GEMM on wgmma, its epilogue fused",
          "[codegen][conv]") {
  VtcSession s(convolutions(), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::ChannelsLast});
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan hopper = generateCuda(s.optimizedPlan());
  // One launch a convolution (the Relu is in the GEMM's epilogue), and the Abs that computes x.
  CHECK(hopper.launches.size() == 5);
  const std::vector<GeneratedLaunch> gemm = launchesDescribed(hopper, "conv 1x1 64->128 as tf32 gemm");
  REQUIRE(gemm.size() == 1);
  CHECK(gemm[0].block[0] == static_cast<unsigned>(kWgmmaThreads));
  // B: the pixels with their channels contiguous.
  CHECK(countOccurrences(hopper.source, "tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous, true,") == 1);
  CHECK(countOccurrences(hopper.source, "tcx::gemm_wgmma_f32_body<tcx::Access::ColContiguous, true,") == 0);
  CHECK(launchesDescribed(hopper, "(implicit GEMM").size() == 3);

  // cuDNN (and cuBLAS for its GEMM) stay on offer for the GEMM's kernel, its result staged as the
  // graph's output is stored (channels-first).
  const auto offered = std::ranges::find(hopper.vendorAlternatives, gemm[0].planKernel, &VendorAlternative::planKernel);
  REQUIRE(offered != hopper.vendorAlternatives.end());
  const auto& conv = std::get<VendorConv>(offered->call);
  CHECK((conv.cin == 64 && conv.cout == 128 && conv.kh == 1 && conv.h == 56));
  CHECK_FALSE(conv.channelsLastResult);

  INFO("as exported (pixels contiguous) the staged convolution measured faster: no GEMM");
  VtcSession nchw(convolutions(), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::AsExported});
  nchw.select(EdgeConstraintSpecs{});
  const GeneratedPlan exported = generateCuda(nchw.optimizedPlan());
  CHECK(countOccurrences(exported.source, "gemm_wgmma_f32") == 0);
  CHECK(launchesDescribed(exported, "(implicit GEMM").size() == 4);

  INFO("without wgmma (sm_90) every convolution stays on conv_implicit_gemm");
  const GeneratedPlan other = generateCuda(s.optimizedPlan(), codegenTargetFor("sm_90", 132));
  CHECK(countOccurrences(other.source, "gemm_wgmma_f32") == 0);
  CHECK(launchesDescribed(other, "(implicit GEMM").size() == 4);
}

namespace {

// DenseNet's layer at 28 x 28: two convolutions' results concatenated, BN-ReLU over the
// concatenation (statistics as graph inputs, as tcx's exports pass weights), then a 1x1 into 128
// channels; `intoFew` makes that 32 channels.
Graph denseLayer(int64_t filters) {
  GraphBuilder b("dense_layer");
  Value* x = b.input("x", DType::F32, {2, 64, 28, 28});
  Value* y1 = b.op("Conv", {x, b.input("w1", DType::F32, {64, 64, 1, 1})});
  Value* y2 = b.op("Conv", {x, b.input("w2", DType::F32, {32, 64, 3, 3})}, attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}));
  Value* features = b.op("Concat", {y1, y2}, attrs({{"axis", int64_t{1}}}));
  std::vector<Value*> bn{features};
  for (const char* name : {"scale", "bias", "mean", "var"}) bn.push_back(b.input(name, DType::F32, {96}));
  Value* act = b.op("Relu", {b.op("BatchNormalization", bn)});
  b.output(b.op("Conv", {act, b.input("w", DType::F32, {filters, 96, 1, 1})}));
  return b.finish();
}

} // namespace

TEST_CASE("a pointwise convolution applies the BN-ReLU before it as it stages its input", "[codegen][conv]") {
  VtcSession s(denseLayer(128), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan hopper = generateCuda(s.optimizedPlan());
  // The two convolutions and the GEMM: no kernel writes the BN-ReLU's result.
  CHECK(hopper.launches.size() == 3);
  CHECK(launchesDescribed(hopper, "stage ").empty());
  const std::vector<GeneratedLaunch> gemm =
      launchesDescribed(hopper, "conv 1x1 96->128 after BatchNormalization+Relu as tf32 gemm 128x784x96 (batch 2)");
  REQUIRE(gemm.size() == 1);
  // B is the concatenation both convolutions stored into, read whole: 96 channels of 784 pixels.
  CHECK(countOccurrences(hopper.source, ", 75264, 784, 1};") == 2); // the GEMM's and its prelude's
  // The coefficients once a channel, a multiply-add and the Relu an element; the cuDNN call's prelude
  // applies the same functor (and reads B as the GEMM does, the strides above).
  CHECK(countOccurrences(hopper.source, "Channel channel(int k) const") == 1);
  CHECK(countOccurrences(hopper.source, "tcx::op::Sqrt") == 1);
  CHECK(countOccurrences(hopper.source, "tcx::stage_b_prologue_body(p, ") == 1);
  CHECK(countOccurrences(hopper.source, "v * c.f0 + c.f1") == 1);
  CHECK(countOccurrences(hopper.source, "tcx::Access::ColContiguous, true, k2_Epilogue, k2_Prologue>(p, k2_Epilogue{b}, "
                                        "k2_Prologue{b})") == 1);
  // cuDNN stays on offer, its prelude (no launch of the plan's) staging the BN-ReLU for it to read.
  const auto offered = std::ranges::find(hopper.vendorAlternatives, gemm[0].planKernel, &VendorAlternative::planKernel);
  REQUIRE(offered != hopper.vendorAlternatives.end());
  REQUIRE(offered->prelude);
  CHECK(offered->prelude->what.rfind("stage ", 0) == 0);
  CHECK(offered->prelude->buffers == gemm[0].buffers);
  // Into the buffer every prelude shares, which the profiler allocates only where a call is chosen.
  CHECK(offered->input == hopper.vendorInput());
  CHECK(hopper.forVendorCalls(offered->input));
  CHECK(hopper.scratchBytes.at(offered->input - hopper.numPlanBuffers) == 2 * 96 * 28 * 28 * 4);
  const auto& conv = std::get<VendorConv>(offered->call);
  CHECK((conv.cin == 96 && conv.cout == 128 && conv.kh == 1));

  INFO("into 32 channels (no tf32 GEMM) and without wgmma the BN-ReLU is a stage the convolution reads");
  VtcSession few(denseLayer(32), defaultGpuPreset());
  few.select(EdgeConstraintSpecs{});
  for (const GeneratedPlan& staged :
       {generateCuda(few.optimizedPlan()), generateCuda(s.optimizedPlan(), codegenTargetFor("sm_90", 132))}) {
    CHECK(staged.launches.size() == 4);
    CHECK(countOccurrences(staged.source, "Prologue") == 0);
    REQUIRE(launchesDescribed(staged, "stage ").size() == 1);
    // cuDNN stays on offer for the convolution, reading the stage (it replaces the kernel's last launch).
    const int kernel = launchesDescribed(staged, "stage ")[0].planKernel;
    const auto offered = std::ranges::find(staged.vendorAlternatives, kernel, &VendorAlternative::planKernel);
    REQUIRE(offered != staged.vendorAlternatives.end());
    CHECK_FALSE(offered->prelude);
  }
}

TEST_CASE("dense layers whose GEMMs differ only in K share their code, K a launch value", "[codegen][conv]") {
  VtcSession s(denseBlock(3), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan code = generateCuda(s.optimizedPlan());
  std::vector<GeneratedLaunch> gemms;
  for (int k : {64, 96, 128}) {
    const std::vector<GeneratedLaunch> found = launchesDescribed(
        code, fmt::format("conv 1x1 {}->128 after BatchNormalization+Relu as tf32 gemm 128x3136x{} (batch 8)", k, k));
    REQUIRE(found.size() == 1);
    gemms.push_back(found[0]);
  }
  // One kernel's code runs all three; each launch binds its own K.
  CHECK(gemms[1].entry == gemms[0].entry);
  CHECK(gemms[2].entry == gemms[0].entry);
  CHECK(countOccurrences(code.source, "gemm(Buffers b) {") == 1);
  CHECK(countOccurrences(code.source, "prelude(Buffers b) {") == 1);
  for (size_t i = 0; i < gemms.size(); ++i) {
    INFO("K " << 64 + 32 * i);
    CHECK(std::ranges::count(gemms[i].buffers, BufferBinding{BufferBinding::kValue, int64_t(64 + 32 * i)}) == 1);
    const std::vector<std::string> slots = describeSlots(s.optimizedPlan(), code, gemms[i].planKernel);
    CHECK(std::ranges::count_if(slots, [&](const std::string& slot) {
            return slot.ends_with(fmt::format(" = {}, a launch value", 64 + 32 * i));
          }) == 1);
    // cuDNN's prelude runs the shared code too, binding what the GEMM binds.
    const auto offered = std::ranges::find(code.vendorAlternatives, gemms[i].planKernel, &VendorAlternative::planKernel);
    REQUIRE(offered != code.vendorAlternatives.end());
    REQUIRE(offered->prelude);
    CHECK(offered->prelude->buffers == gemms[i].buffers);
    CHECK(offered->prelude->grid[0] == (8 * (64 + 32 * i) * 3136 + 255) / 256);
  }
  CHECK(code.source.find("p.k = int(tcx::slotValue(b.p[") != std::string::npos);
}
