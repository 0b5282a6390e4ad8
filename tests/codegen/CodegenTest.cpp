// CUDA code generation from plans, checked without a GPU: which launches a
// plan becomes and what the mapping functions turn into. GPU execution is
// checked against the CPU reference in tests/gpu.
#include "CodegenTestUtil.h"
#include "Samples.h"

#include "codegen/CudaCodegen.h"
#include "codegen/KernelText.h"
#include "tcx/launch.h"
#include "ops/GraphBuilder.h"
#include "target/GpuPreset.h"
#include "pipeline/VtcSession.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

using namespace tcx;
using namespace tcx::test;


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
}

TEST_CASE("each plan kernel's source span holds the entries it launches", "[codegen]") {
  VtcSession s(samples::buildLlama3Decode({2, 24, 64, 4, 2, 16, DType::BF16}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  for (const ExecPlan* plan : {&s.baselinePlan(), &s.optimizedPlan()}) {
    GeneratedPlan g = generateCuda(*plan);
    REQUIRE(g.kernelSpans.size() == plan->kernels.size());
    std::vector<std::string> lines{""}; // 1-based
    for (size_t pos = 0, next; pos < g.source.size(); pos = next + 1) {
      next = g.source.find('\n', pos);
      if (next == std::string::npos) next = g.source.size();
      lines.push_back(g.source.substr(pos, next - pos));
    }
    for (const GeneratedLaunch& l : g.launches) {
      const SourceSpan& span = g.kernelSpans.at(l.planKernel);
      REQUIRE_FALSE(span.empty());
      REQUIRE(span.lastLine < int(lines.size()));
      bool found = false;
      for (int i = span.firstLine; i <= span.lastLine && !found; ++i)
        found = lines[i].find(" " + l.entry + "(") != std::string::npos;
      INFO(l.entry);
      CHECK(found);
    }
    // The spans of kernels with code of their own are disjoint and in plan order; a kernel that runs
    // another's code shows that code.
    int lastLine = 0;
    for (size_t k = 0; k < g.kernelSpans.size(); ++k) {
      const SourceSpan& span = g.kernelSpans[k];
      const int shared = g.codeKernel.at(k);
      if (shared != static_cast<int>(k)) {
        REQUIRE(shared < static_cast<int>(k));
        CHECK(span.firstLine == g.kernelSpans[shared].firstLine);
        CHECK(span.lastLine == g.kernelSpans[shared].lastLine);
      } else if (!span.empty()) {
        CHECK(span.firstLine > lastLine);
        lastLine = span.lastLine;
      }
    }
  }
}

// TCX_DUMP_CUDA=DIR writes each module to DIR, to compile or read by hand.
TEST_CASE("every sample's plans generate CUDA", "[codegen]") {
  std::vector<std::pair<std::string, Graph>> graphs = samples::reducedSamples();
  graphs.emplace_back("llama64", samples::buildLlama3Decode({2, 80, 256, 4, 2, 64, DType::BF16}));
  for (auto& [name, graph] : graphs) {
    SECTION(name) {
      VtcSession s(std::move(graph), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      GeneratedPlan baseline = generateCuda(s.baselinePlan());
      GeneratedPlan optimized = generateCuda(s.optimizedPlan());
      CHECK_FALSE(optimized.launches.empty());
      CHECK(optimized.launches.size() <= baseline.launches.size());
      CHECK(optimized.source.find("typedef int Index;") != std::string::npos);
      // The profiler launches each kernel as the one before it ends: every one must await it.
      REQUIRE(countOccurrences(optimized.source, "extern \"C\" __global__") > 0);
      CHECK(entriesNotAwaiting(optimized.source).empty());
      CHECK(entriesNotAwaiting(baseline.source).empty());
      if (const char* dir = std::getenv("TCX_DUMP_CUDA")) {
        std::ofstream(std::string(dir) + "/" + name + ".cu") << optimized.source;
        std::ofstream(std::string(dir) + "/" + name + "_base.cu") << baseline.source;
      }
    }
  }
}

TEST_CASE("a kernel that reads before awaiting the one before it is found", "[codegen]") {
  const std::string awaits = "extern \"C\" __global__ void __launch_bounds__(tcx::tiledThreads(64)) k1(Buffers b) {\n"
                             "  tcx::awaitPredecessors();\n  x();\n}\n";
  CHECK(entriesNotAwaiting(awaits).empty());
  CHECK(entriesNotAwaiting(awaits + "extern \"C\" __global__ void __launch_bounds__(256) k2(Buffers b) {\n"
                                    "  x();\n  tcx::awaitPredecessors();\n}\n") == std::vector<std::string>{"k2"});
}

TEST_CASE("library kernels take the GEMMs, the attention and the convolutions", "[codegen]") {
  VtcSession llama(samples::buildLlama3Decode({2, 80, 256, 4, 2, 64, DType::BF16}), defaultGpuPreset());
  llama.select(EdgeConstraintSpecs{});
  GeneratedPlan code = generateCuda(llama.optimizedPlan());
  CHECK(countLaunches(code, "gemm") == 2); // QKV and output projections
  CHECK(countLaunches(code, "attention") == 2); // split-K partials and their combination
  CHECK(code.launches.size() == 4);
  // K and V are read with the query head divided by the group (4 / 2 = 2): no Expand copy anywhere.
  CHECK(code.source.find("decode_attention_partial_body") != std::string::npos);
  CHECK(countLaunches(code, "copy") == 0);

  VtcSession yolo(samples::buildYolov11C3k2({2, 8, 16}), defaultGpuPreset());
  yolo.select(EdgeConstraintSpecs{});
  GeneratedPlan conv = generateCuda(yolo.optimizedPlan());
  // cv1, cv2 (1x1) and the bottleneck's 3x3 on tf32 tensor cores, its SiLU and residual Add in the epilogue.
  CHECK(countLaunches(conv, "conv") == 3);
  CHECK(conv.launches.size() == 3);
  // All three float convolutions stage their inputs with cp.async; the pointwise ones over a flattened image.
  CHECK(countOccurrences(conv.source, "conv_implicit_gemm_body<float, tcx::ConvPath::Staged>") == 3);
  CHECK(countOccurrences(conv.source, "p.h = 1;") == 2);
  // Over 6 x 6 images a staged tile (pixels of one image) would hold 36 pixels of its 128: the three gather
  // their operands in tiles that run across the images.
  VtcSession small(samples::buildYolov11C3k2({2, 8, 6}), defaultGpuPreset());
  small.select(EdgeConstraintSpecs{});
  GeneratedPlan gathered = generateCuda(small.optimizedPlan());
  CHECK(countOccurrences(gathered.source, "conv_implicit_gemm_body<float, tcx::ConvPath::Gathered>") == 3);
  CHECK(launchesDescribed(gathered, "(implicit GEMM, gathered").size() == 3);

  // ShuffleNet's depthwise convolution (a channel a group) runs on conv_depthwise.
  VtcSession shuffle(samples::buildShufflenetV2Unit({2, 8, 5}), defaultGpuPreset());
  shuffle.select(EdgeConstraintSpecs{});
  GeneratedPlan grouped = generateCuda(shuffle.optimizedPlan());
  CHECK(countLaunches(grouped, "conv") == 3);
  CHECK(countLaunches(grouped, "stage") == 0);
  CHECK(countLaunches(grouped, "conv 3x3 depthwise x4 on 2x5x5 (stride 1)") == 1);
  CHECK(countOccurrences(grouped.source, "tcx::conv_depthwise_body<float>") == 1);
}

TEST_CASE("a grouped convolution runs its groups on the implicit GEMM, one per grid z, without split-K", "[codegen]") {
  // RegNetY's grouped 3x3s (8 channels a group) on the implicit GEMM; ResNeXt-50's first (32
  // groups of 4 channels) and a depthwise one on conv_depthwise, a thread an output, where the
  // implicit GEMM's 64-channel tiles would mostly idle.
  GraphBuilder b("grouped");
  Value* x = b.input("x", DType::F32, {1, 128, 56, 56});
  const std::vector<int64_t> pads{1, 1, 1, 1};
  b.output(b.op("Conv", {x, b.input("w", DType::F32, {128, 8, 3, 3})}, attrs({{"group", 16}, {"pads", pads}})));
  b.output(b.op("Conv", {x, b.input("w4", DType::F32, {128, 4, 3, 3})}, attrs({{"group", 32}, {"pads", pads}})));
  b.output(b.op("Conv", {x, b.input("dw", DType::F32, {128, 1, 3, 3})}, attrs({{"group", 128}, {"pads", pads}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  GeneratedPlan code = generateCuda(s.baselinePlan());
  const std::vector<GeneratedLaunch> grouped = launchesDescribed(code, "x16 groups");
  REQUIRE(grouped.size() == 1);
  CHECK(grouped[0].what.rfind("conv 3x3 8->8 x16 groups", 0) == 0);
  CHECK(grouped[0].grid[2] == 16);
  CHECK(grouped[0].grid[1] == 1); // no split of K
  CHECK(countOccurrences(code.source, "p.groups = 16;") == 1);
  CHECK(launchesDescribed(code, "implicit GEMM").size() == 1);
  const std::vector<GeneratedLaunch> narrow = launchesDescribed(code, "x32 groups");
  REQUIRE(narrow.size() == 1);
  CHECK(narrow[0].what == "conv 3x3 4->4 x32 groups on 1x56x56 (stride 1, direct)");
  CHECK(narrow[0].grid[0] == (128u * 56 * 56 + 255) / 256); // one thread an output element
  const std::vector<GeneratedLaunch> depthwise = launchesDescribed(code, "depthwise");
  REQUIRE(depthwise.size() == 1);
  CHECK(depthwise[0].what == "conv 3x3 depthwise x128 on 1x56x56 (stride 1)");
  CHECK(depthwise[0].grid[0] == (128u * 56 * 56 + 255) / 256);
  CHECK(countOccurrences(code.source, "tcx::conv_depthwise_body<float>") == 2);
}

TEST_CASE("stems over RGB images take the window path, three blocks a multiprocessor for one channel tile",
          "[codegen]") {
  // SqueezeNet's and ResNet's 7x7 stride-2 stems at 32 images; ResNet's at one image, whose 98 tiles would
  // leave the GPU's block slots idle, keeps the gathered path and splits K.
  GraphBuilder b("stems");
  Value* images = b.input("images", DType::F32, {32, 3, 224, 224});
  const std::vector<int64_t> strides{2, 2}, pads{3, 3, 3, 3};
  b.output(b.op("Conv", {images, b.input("squeeze", DType::F32, {96, 3, 7, 7})}, attrs({{"strides", strides}})));
  b.output(b.op("Conv", {images, b.input("resnet", DType::F32, {64, 3, 7, 7})},
                attrs({{"strides", strides}, {"pads", pads}})));
  b.output(b.op("Conv", {b.input("image", DType::F32, {1, 3, 224, 224}), b.input("one", DType::F32, {64, 3, 7, 7})},
                attrs({{"strides", strides}, {"pads", pads}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  const GeneratedPlan code = generateCuda(s.baselinePlan());
  const auto minBlocksOf = [&](const GeneratedLaunch& l, int blocks) {
    return code.source.find(fmt::format("__launch_bounds__(tcx::kConvThreads, {}) {}(Buffers b)", blocks, l.entry)) !=
           std::string::npos;
  };
  const auto squeeze = launchesDescribed(code, "conv 7x7 3->96 on 32x224x224 (implicit GEMM, window)");
  REQUIRE(squeeze.size() == 1);
  CHECK(squeeze[0].grid[0] == 2u * 132); // two blocks a multiprocessor: the second channel tile is half idle
  CHECK(minBlocksOf(squeeze[0], 2));
  const auto resnet = launchesDescribed(code, "conv 7x7 3->64 on 32x224x224 (implicit GEMM, window)");
  REQUIRE(resnet.size() == 1);
  CHECK(resnet[0].grid[0] == 3u * 132);
  CHECK(minBlocksOf(resnet[0], 3));
  CHECK(countOccurrences(code.source, "tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Window>") == 2);
  CHECK(launchesDescribed(code, "conv 7x7 3->64 on 1x224x224 (implicit GEMM, gathered, split").size() == 1);
}

TEST_CASE("a depthwise convolution over a transposed channels-last input runs its threads across channels", "[codegen]") {
  // ConvNeXt's first depthwise 7x7 reads its stem's output through a transpose: the optimised plan reads x
  // through the transpose's mapping, channels contiguous; the baseline copies the transpose first.
  GraphBuilder b("channels_last");
  Value* nchw = b.op("Transpose", {b.input("nhwc", DType::F32, {2, 6, 7, 40})},
                     attrs({{"perm", std::vector<int64_t>{0, 3, 1, 2}}}));
  b.output(b.op("Conv", {nchw, b.input("w", DType::F32, {40, 1, 7, 7})},
                attrs({{"group", 40}, {"pads", std::vector<int64_t>{3, 3, 3, 3}}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan optimized = generateCuda(s.optimizedPlan());
  CHECK(countLaunches(optimized, "conv 7x7 depthwise x40 on 2x6x7 (stride 1, channels-last)") == 1);
  CHECK(countOccurrences(optimized.source, "tcx::conv_depthwise_tiled_body<float>") == 1);
  GeneratedPlan baseline = generateCuda(s.baselinePlan());
  CHECK(countOccurrences(baseline.source, "tcx::conv_depthwise_body<float>") == 1);
}

TEST_CASE("tensors with no elements plan and generate", "[codegen]") {
  // ONNX's reshape_allowzero_reordered: an empty input reshaped to another
  // empty shape, and an empty slice; both graph outputs, so nothing folds.
  GraphBuilder b("empty");
  Value* x = b.input("x", DType::F32, {0, 3, 4});
  Value* y = b.input("y", DType::F32, {2, 5});
  b.output(b.op("Reshape", {x, b.ints("shape", {3, 4, 0})}, attrs({{"allowzero", 1}})));
  b.output(b.op("Slice", {y, b.ints("starts", {7}), b.ints("ends", {9}), b.ints("axes", {1})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  for (const ExecPlan* plan : {&s.baselinePlan(), &s.optimizedPlan()}) {
    GeneratedPlan code = generateCuda(*plan);
    CHECK(code.source.find("% 0u") == std::string::npos);
  }
}

TEST_CASE("the GEMMs and convolutions of a plan share one zeroed split-K workspace, as big as the largest asks",
          "[codegen]") {
  // ViT's q projection (12 tiles, K split in 12), its MLP's second layer (K split in 20) and ResNet's
  // last 3 x 3 convolution (8 tiles); a GEMM with enough tiles takes no workspace. One buffer serves
  // all: each launch leaves its counters at zero, and abi.h puts the counters of every kernel in one
  // fixed region before the partial tiles.
  GraphBuilder b("splits");
  Value* x = b.input("x", DType::F32, {197, 768});
  b.output(b.op("MatMul", {x, b.input("wq", DType::F32, {768, 768})}));
  b.output(b.op("MatMul", {b.input("h", DType::F32, {197, 3072}), b.input("w2", DType::F32, {3072, 768})}));
  b.output(b.op("MatMul", {b.input("big", DType::F32, {2048, 1024}), b.input("w3", DType::F32, {1024, 2048})}));
  b.output(b.op("Conv", {b.input("image", DType::F32, {1, 512, 7, 7}), b.input("filters", DType::F32, {512, 512, 3, 3})},
                attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  const GeneratedPlan code = generateCuda(s.baselinePlan());
  REQUIRE(countLaunches(code, "gemm") == 3);
  REQUIRE(countLaunches(code, "conv") == 1);
  std::vector<int64_t> zeroed;
  size_t buffer = 0;
  for (size_t i = 0; i < code.scratchBytes.size(); ++i)
    if (code.scratchZeroed[i]) zeroed.push_back(code.scratchBytes[i]), buffer = code.numPlanBuffers + i;
  REQUIRE(zeroed.size() == 1);
  const int smCount = defaultGpuPreset().smCount;
  auto workspace = [&](int m, int n, int k) {
    GemmProblem pr;
    pr.type = ElemType::F32, pr.m = m, pr.n = n, pr.k = k;
    pr.aStrides[1] = k, pr.aStrides[2] = 1, pr.bStrides[1] = n, pr.bStrides[2] = 1;
    return static_cast<int64_t>(planGemm(pr, smCount, 0, CodegenTarget{}.wgmma).workspaceBytes);
  };
  ConvParams conv = {};
  conv.batch = 1, conv.cin = conv.cout = 512, conv.h = conv.width = conv.oh = conv.ow = 7, conv.kh = conv.kw = 3;
  conv.strideH = conv.strideW = conv.dilationH = conv.dilationW = conv.padH = conv.padW = 1;
  const ConvPlan convPlan = planConv(conv, ElemType::F32, true, true, smCount);
  REQUIRE(convPlan.workspaceBytes > 0);
  CHECK(zeroed[0] == std::max({workspace(197, 768, 768), workspace(197, 768, 3072),
                               static_cast<int64_t>(convPlan.workspaceBytes)}));
  CHECK(workspace(2048, 2048, 1024) == 0);
  // Each kernel names its buffers by slot; three launches bind the workspace, and their code hands it
  // to the library kernel.
  int bindings = 0;
  for (const GeneratedLaunch& l : code.launches) {
    const int slot = slotOf(l, static_cast<int>(buffer));
    if (slot < 0) continue;
    ++bindings;
    const SourceSpan& span = code.kernelSpans.at(l.planKernel);
    CHECK(countOccurrences(spanText(code, span), fmt::format("p.workspace = b.p[{}]", slot)) == 1);
  }
  CHECK(bindings == 3);
  CHECK(countOccurrences(code.source, "p.workspace = nullptr") == 1);
}

namespace {

// The optimised plan's code of an fp32 attention over [1, heads, tokens, d], K transposed, no scale.
GeneratedPlan floatAttention(int64_t heads, int64_t tokens, int64_t d) {
  GraphBuilder b("float_attention");
  const Shape shape{1, heads, tokens, d};
  Value* kt = b.op("Transpose", {b.input("k", DType::F32, shape)}, attrs({{"perm", std::vector<int64_t>{0, 1, 3, 2}}}));
  Value* probs = b.op("Softmax", {b.op("MatMul", {b.input("q", DType::F32, shape), kt})}, attrs({{"axis", int64_t{-1}}}));
  b.output(b.op("MatMul", {probs, b.input("v", DType::F32, shape)}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  return generateCuda(s.optimizedPlan());
}

} // namespace

TEST_CASE("a float attention runs on the fp32 attention kernel", "[codegen]") {
  // ViT's attention: the scores and probabilities stay in registers (attention_f32.cuh), one launch where
  // the staged form took three and wrote the scores out.
  const GeneratedPlan code = floatAttention(12, 197, 64);
  REQUIRE(code.launches.size() == 1);
  CHECK(code.launches[0].what == "fp32 attention 1x12/12 heads, 197 queries, 197 keys");
  // 4 row tiles of 64 for each of the 12 heads, 128 threads, Q and two stages of K and V in shared memory.
  CHECK(code.launches[0].grid[0] == 48);
  CHECK(code.launches[0].block[0] == 128);
  CHECK(code.launches[0].sharedBytes == static_cast<unsigned>(f32AttentionSharedBytes(64)));
  // The Transpose is virtual: K read with its head dim contiguous.
  CHECK(countOccurrences(code.source, "tcx::attention_f32_body<64, false>") == 1);
  CHECK(countOccurrences(code.source, "p.emptyRowsZero = 0;") == 1);
  CHECK(countOccurrences(code.source, "_acc += ") == 0);

  // A head dim of 12 is no multiple of 8: the products stage on the library GEMMs, the softmax on a row
  // kernel.
  const GeneratedPlan staged = floatAttention(2, 40, 12);
  REQUIRE(staged.launches.size() == 3);
  CHECK(staged.launches[0].what.find("on the library gemm 40x40x12 (batch 2") != std::string::npos);
  CHECK(staged.launches[1].what.find("(a warp per row)") != std::string::npos);
  CHECK(staged.launches[2].what.rfind("gemm 40x12x40 (batch 2", 0) == 0);
}

TEST_CASE("a linear layer over a sequence-first view folds its rows in memory order", "[codegen]") {
  // ViT's q/k/v projection at 32 images: PyTorch's multi-head attention reads [32, 197, 768] as
  // [197, 32, 768]. With the Transpose folded, the rows (197 x 32) have no single stride in the view's
  // order, but do in memory order: one GEMM of 6304 rows on the shared weight, the epilogue storing row
  // m at (m % 197, m / 197).
  GraphBuilder b("sequence_first");
  Value* x = b.op("Transpose", {b.input("x", DType::F32, {32, 197, 768})}, attrs({{"perm", std::vector<int64_t>{1, 0, 2}}}));
  b.output(b.op("MatMul", {x, b.input("w", DType::F32, {768, 2304})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan code = generateCuda(s.optimizedPlan());
  CHECK(countLaunches(code, "copy") == 0);
  REQUIRE(launchesDescribed(code, "gemm 6304x2304x768 (batch 1").size() == 1);
  // Once in the epilogue's compute, once in its store (codegen/EpilogueCode.h).
  CHECK(countOccurrences(code.source, "const Index x0 = m % 197, x1 = m / 197, x2 = n;") == 2);
  CHECK(countOccurrences(code.source, "_acc += ") == 0);
  // x (buffer 0) with a row stride of 768, the weight (buffer 1) in the slots the GEMM's launch binds.
  const GeneratedLaunch gemm = launchesDescribed(code, "gemm 6304x2304x768 (batch 1").front();
  const int input = slotOf(gemm, 0), weight = slotOf(gemm, 1);
  REQUIRE(input >= 0);
  REQUIRE(weight >= 0);
  CHECK(countOccurrences(code.source, fmt::format("p.a = {{static_cast<const float*>(b.p[{}]), 0, 768, 1}};", input)) ==
        1);
  CHECK(countOccurrences(code.source, fmt::format("p.b = {{static_cast<const float*>(b.p[{}]), 0, 2304, 1}};", weight)) ==
        1);
}

TEST_CASE("a float linear layer runs on wgmma for sm_90a and on mma.sync otherwise", "[codegen]") {
  // The weight with n contiguous, as exports store a Linear's, and read transposed (k contiguous):
  // gemm_wgmma_f32 stages both K-major. Every target without wgmma stays on gemm_tiled.
  GraphBuilder b("linear");
  Value* x = b.input("x", DType::F32, {256, 768});
  b.output(b.op("MatMul", {x, b.input("w", DType::F32, {768, 3072})}));
  Value* wt = b.op("Transpose", {b.input("wt", DType::F32, {3072, 768})}, attrs({{"perm", std::vector<int64_t>{1, 0}}}));
  b.output(b.op("MatMul", {x, wt}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan hopper = generateCuda(s.optimizedPlan());
  REQUIRE(countLaunches(hopper, "gemm") == 2);
  CHECK(countOccurrences(hopper.source, "__launch_bounds__(tcx::kWgmmaThreads, tcx::wgmmaMinBlocks(false))") == 2);
  CHECK(countOccurrences(hopper.source, "tcx::gemm_wgmma_f32_body<tcx::Access::ColContiguous,") == 1);
  CHECK(countOccurrences(hopper.source, "tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous,") == 1);
  CHECK(countOccurrences(hopper.source, "gemm_tiled") == 0);
  CHECK(codegenTargetFor("sm_90a", 114).smCount == 114);
  CHECK(codegenTargetFor("sm_90a", 114).threadsPerSm == 2048);
  CHECK(codegenTargetFor("sm_86", 84, 1536).threadsPerSm == 1536);
  CHECK(codegenTargetFor("sm_90a", 114).wgmma);
  CHECK_FALSE(codegenTargetFor("sm_100a", 148).wgmma); // wgmma is Hopper's alone
  const GeneratedPlan other = generateCuda(s.optimizedPlan(), codegenTargetFor("sm_90", 132));
  CHECK(countOccurrences(other.source, "gemm_wgmma_f32") == 0);
  CHECK(countOccurrences(other.source, "tcx::gemm_tiled_body<float,") == 2);
  // 256 x 3072: 2 x 24 tiles of 128 x 128, one block a multiprocessor, so K (768) splits in 2 to
  // fill 132 of them; the shared memory is three stages of A, B and B's remainder.
  const std::vector<GeneratedLaunch> wgmma =
      launchesDescribed(hopper, "gemm 256x3072x768 (batch 1, split 2) on gemm_wgmma_f32");
  REQUIRE(wgmma.size() == 2);
  CHECK(launchesDescribed(other, "gemm 256x3072x768 (batch 1, split 5) on gemm_tiled 128x128").size() == 2);
  CHECK(wgmma[0].block[0] == static_cast<unsigned>(kWgmmaThreads));
  CHECK(wgmma[0].grid == std::array<unsigned, 3>{24, 2, 2});
  CHECK(wgmma[0].sharedBytes == static_cast<unsigned>(wgmmaSharedBytes(false)));
}

TEST_CASE("a BatchNormalization is computed in its consumers' loop, not staged", "[codegen]") {
  // DenseNet's BN-ReLU over a concatenation: the per-channel statistics make the element form read each
  // operand once, so BN and ReLU are one loop that stores the output (no scratch, no second launch).
  GraphBuilder b("bn_relu");
  const int64_t c = 96;
  Value* y = b.op("BatchNormalization",
                  {b.input("x", DType::F32, {1, c, 28, 28}), b.input("scale", DType::F32, {c}),
                   b.input("bias", DType::F32, {c}), b.input("mean", DType::F32, {c}), b.input("var", DType::F32, {c})});
  b.output(b.op("Relu", {y}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan code = generateCuda(s.optimizedPlan());
  REQUIRE(code.launches.size() == 1);
  CHECK(code.launches[0].what.rfind("store", 0) == 0);
  CHECK(code.scratchBytes.empty());
  CHECK(countOccurrences(code.source, "tcx::op::Sqrt") == 1);
}

TEST_CASE("a plan kernel's code is guarded so that the module compiles in parts", "[codegen]") {
  VtcSession s(samples::buildLlama3Decode({2, 24, 64, 4, 2, 16, DType::BF16}), defaultGpuPreset());
  const GeneratedPlan code = generateCuda(s.baselinePlan());
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> all{""}; // 1-based
    for (size_t at = 0, next; at < code.source.size(); at = next + 1) {
      next = code.source.find('\n', at);
      if (next == std::string::npos) next = code.source.size();
      all.push_back(code.source.substr(at, next - at));
    }
    return all;
  }();
  for (size_t k = 0; k < code.kernelSpans.size(); ++k) {
    const SourceSpan& span = code.kernelSpans[k];
    if (span.empty()) continue;
    INFO("plan kernel " << k);
    CHECK(lines.at(span.firstLine) ==
          "#if !defined(TCX_PART) || defined(TCX_KERNEL_" + std::to_string(code.codeKernel[k]) + ")");
    CHECK(lines.at(span.lastLine) == "#endif");
  }
}

TEST_CASE("Gemm with transposes, alpha and a bias runs on the library GEMM", "[codegen]") {
  // A torchvision classifier as the exporters write it: Gemm(x, W, b) with
  // transB, W [1000, 1280]; and the transposed-A, scaled form.
  GraphBuilder b("classifier");
  Value* x = b.input("x", DType::F32, {1, 1280});
  Value* w = b.input("w", DType::F32, {1000, 1280});
  b.output(b.op("Gemm", {x, w, b.input("bias", DType::F32, {1000})}, attrs({{"transB", int64_t{1}}})));
  Value* xt = b.input("xt", DType::F32, {64, 3});
  b.output(b.op("Gemm", {xt, b.input("w2", DType::F32, {64, 40}), b.input("c", DType::F32, {3, 1})},
                attrs({{"transA", int64_t{1}}, {"alpha", 0.5f}, {"beta", 2.0f}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  GeneratedPlan code = generateCuda(s.baselinePlan());
  CHECK(countLaunches(code, "gemm 1x1000x1280") == 1);
  CHECK(countLaunches(code, "gemm 3x40x64") == 1);
  CHECK(countLaunches(code, "stage") == 0);
  CHECK(code.source.find("gemm_small_m_body<float, 1, tcx::Access::RowContiguous") != std::string::npos);
}

TEST_CASE("an element-wise kernel computes its thread's elements before it stores any", "[codegen]") {
  // relu(x) + y: a store kernel. Over 2^21 elements, enough to fill an H200's 132 multiprocessors four
  // times over, each thread takes kElementsPerThread of them (512 blocks of 1024) and issues every load of
  // its first loop before the second loop's stores (tcx/epilogue.cuh); over 5000, one (20 blocks), so that
  // a small tensor keeps its threads; and one over 2^21 too on a GPU of 4096 threads a multiprocessor, which
  // 2^21 fills fewer than four times.
  auto generate = [](int64_t n, int threadsPerSm = 2048) {
    GraphBuilder b("add_relu");
    Value* x = b.input("x", DType::F32, {n});
    b.output(b.op("Add", {b.op("Relu", {x}), b.input("y", DType::F32, {n})}));
    VtcSession s(b.finish(), defaultGpuPreset());
    s.select(EdgeConstraintSpecs{});
    return generateCuda(s.optimizedPlan(), CodegenTarget{.smCount = 132, .threadsPerSm = threadsPerSm});
  };
  const GeneratedPlan big = generate(int64_t{1} << 21), small = generate(5000);
  CHECK(generate(int64_t{1} << 21, 4096).launches.at(0).grid[0] == (1 << 21) / 256);
  REQUIRE(big.launches.size() == 1);
  REQUIRE(small.launches.size() == 1);
  CHECK(big.launches[0].grid[0] == (1 << 21) / (256 * kElementsPerThread));
  CHECK(small.launches[0].grid[0] == 20);
  CHECK(countOccurrences(big.source, fmt::format("    float outs[{}];", kElementsPerThread)) == 1);
  CHECK(countOccurrences(small.source, "    float outs[1];") == 1);
  const size_t stored = big.source.find("    const float out = outs[j];");
  const size_t computed = big.source.find("    outs[j] = out;");
  REQUIRE(computed < stored);
  CHECK(big.source.find("tcx::store<") > stored);
  CHECK(countOccurrences(big.source.substr(0, computed), "tcx::load<float>") == 2);
}

TEST_CASE("a Div by a normal float scalar constant multiplies by its reciprocal in double", "[codegen]") {
  // tcx/divide.h: exact for normal divisors of float-computed types. A zero divisor, a divisor
  // computed at run time and a double division keep the division.
  GraphBuilder b("div_forms");
  Value* x = b.input("x", DType::F32, {64});
  Value* h = b.input("h", DType::BF16, {64});
  Value* d = b.input("d", DType::F64, {64});
  b.output(b.op("Div", {x, b.constant("c", Tensor::filled(DType::F32, {}, 11.3125))}));
  b.output(b.op("Div", {h, b.constant("s", Tensor::filled(DType::BF16, {1}, -0.25))}));
  b.output(b.op("Div", {x, b.constant("z", Tensor::filled(DType::F32, {}, 0.0))}));
  b.output(b.op("Div", {x, b.input("y", DType::F32, {64})}));
  b.output(b.op("Div", {d, b.constant("e", Tensor::filled(DType::F64, {}, 3.0))}));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const std::string source = generateCuda(s.baselinePlan()).source;
  CHECK(countOccurrences(source, "tcx::divideByConstant(") == 2);
  CHECK(source.find(fmt::format("{:a})", 1.0 / 11.3125)) != std::string::npos);
  CHECK(source.find(fmt::format("{:a})", 1.0 / -0.25)) != std::string::npos);
  CHECK(countOccurrences(source, "tcx::op::Div(") == 3);
}
