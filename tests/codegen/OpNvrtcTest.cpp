// The compute ops' CUDA forms (ops/CudaLowering.h) compile with NVRTC for
// sm_90a (codegen's default target: float GEMMs on wgmma), which needs no device: every graph of tests/ops/cases, through its
// baseline plan and VTC's optimised one, whose kernels read the ops' inputs
// through mapping functions. compute_op_gpu_test runs the same graphs on a
// GPU against the CPU reference; here both plans run on the CPU first, so
// that a GPU mismatch points at a CUDA form rather than at the graph or
// its plans.
#include "CodegenTestUtil.h"
#include "ComputeOpCases.h"

#include "codegen/CudaCodegen.h"
#include "exec/Compare.h"
#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/OpDef.h"
#include "pipeline/VtcSession.h"
#include "profiler/Nvrtc.h"
#include "target/GpuPreset.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <catch2/catch.hpp>

using namespace tcx;

namespace {

bool movesData(const Graph& g) {
  const std::vector<Node*> nodes = g.nodes();
  return std::any_of(nodes.begin(), nodes.end(), [](const Node* n) { return n->op().isDataMovement(); });
}

void requireCompiles(const ExecPlan& plan, gpu::NvrtcCompiler& compiler) {
  GeneratedPlan generated = generateCuda(plan);
  gpu::CompileResult r = compiler.compile(generated.source, {.arch = "sm_90a"});
  REQUIRE(r.cubin);
  CHECK(r.cubin->size() > 0);
}

} // namespace

TEST_CASE("every compute op's CUDA form compiles with NVRTC for sm_90a, in baseline and optimised plans",
          "[codegen][nvrtc][ops]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) {
      VtcSession s(c.build(), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      // The inputs behind a Transpose, Slice, Concat or Pad are read as
      // virtual tensors once VTC has eliminated the op.
      if (movesData(s.graph())) CHECK_FALSE(s.optimizedPlan().eliminated.empty());
      gpu::NvrtcCompiler compiler(""); // memory only: the two plans' sources are often the same
      {
        INFO("baseline plan");
        requireCompiles(s.baselinePlan(), compiler);
      }
      INFO("optimised plan");
      requireCompiles(s.optimizedPlan(), compiler);
    }
  }
}

TEST_CASE("every compute op case's plans match the reference on the CPU", "[codegen][ops]") {
  for (const test::OpCase& c : test::computeOpCases()) {
    DYNAMIC_SECTION(c.name) {
      VtcSession s(c.build(), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      const auto inputs = randomInputs(s.graph(), 23);
      const ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
      for (const ExecPlan* plan : {&s.baselinePlan(), &s.optimizedPlan()}) {
        const std::vector<Tensor> got = runPlan(*plan, inputs);
        REQUIRE(got.size() == ref.outputs.size());
        for (size_t i = 0; i < got.size(); ++i) {
          INFO("output " << s.graph().outputs()[i]->name());
          CHECK(scaledError(got[i], ref.outputs[i]) == 0);
        }
      }
    }
  }
}

TEST_CASE("the attention cases run on the kernels they exercise", "[codegen][ops]") {
  // compute_op_gpu_test checks these cases on a GPU; they test the fused kernels only if they reach them.
  std::map<std::string, std::string> kernelsOf, sourceOf;
  for (const test::OpCase& c : test::computeOpCases()) {
    if (c.name.rfind("attention", 0) != 0) continue;
    VtcSession s(c.build(), defaultGpuPreset());
    s.select(EdgeConstraintSpecs{});
    const GeneratedPlan code = generateCuda(s.optimizedPlan());
    for (const GeneratedLaunch& l : code.launches)
      if (l.what.find("attention") != std::string::npos) kernelsOf[c.name] += l.what.substr(0, l.what.find(' ')) + ";";
    sourceOf[c.name] = code.source;
  }
  // K stored transposed, in rows of 45 positions (4-byte copies) and of 48 (16-byte copies).
  for (int keys : {45, 48}) {
    const std::string masked = "attention masked, safe softmax, K^T scaled, d32, " + std::to_string(keys) + " keys f32";
    CHECK(kernelsOf[masked] == "fp32;");
    CHECK(sourceOf[masked].find("tcx::attention_f32_body<32, true>") != std::string::npos);
    CHECK(sourceOf[masked].find(fmt::format("p.kStride[3] = {};", keys)) != std::string::npos);
    CHECK(sourceOf[masked].find("p.emptyRowsZero = 1;") != std::string::npos);
  }
  // K and V read where the Slice left them: rows 35 floats apart, 2 floats in.
  const std::string sliced = "attention over sliced K and V, d32 f32";
  CHECK(kernelsOf[sliced] == "fp32;");
  CHECK(sourceOf[sliced].find("p.kStride[2] = 35;") != std::string::npos);
  CHECK(sourceOf[sliced].find("p.vStride[2] = 35;") != std::string::npos);
  // Partials and their combination.
  const std::string maskedHalf = "attention masked, safe softmax, scores scaled, d64, 45 keys bf16";
  CHECK(kernelsOf[maskedHalf] == "attention;attention;");
  CHECK(sourceOf[maskedHalf].find("p.emptyRowsZero = 1;") != std::string::npos);
  for (int d : {64, 128}) {
    const std::string grouped = "attention grouped heads, d" + std::to_string(d) + " f32";
    CHECK(kernelsOf[grouped] == "fp32;");
    CHECK(sourceOf[grouped].find("tcx::attention_f32_body<" + std::to_string(d) + ", false>") != std::string::npos);
    CHECK(sourceOf[grouped].find("p.kvHeads = 2;") != std::string::npos); // the Expand read as a group
  }
  // Swin's mask, moved out of its reshapes at import, read at window bi % 4.
  const std::string shifted = "attention over shifted windows f32";
  CHECK(kernelsOf[shifted] == "fp32;");
  CHECK(sourceOf[shifted].find("(x0 % 4)") != std::string::npos);
  // ViT's two scales, moved from Q and K^T to the scores at import: no kernel writes a scaled copy.
  const std::string scaled = "attention over scaled Q and K^T f32";
  CHECK(kernelsOf[scaled] == "fp32;");
  CHECK(sourceOf[scaled].find("const float e2 = tcx::roundTo<float>(tcx::op::Mul(e1,") != std::string::npos);
  CHECK(test::countOccurrences(sourceOf[scaled], "__global__") == 1);
  CHECK(kernelsOf["attention staged on GEMMs f32"].empty());
  CHECK(kernelsOf["attention staged on GEMMs bf16"].empty());
}

// The session of the compute op case `name`, its edges selected.
std::unique_ptr<VtcSession> caseSession(const std::string& name, const PlanOptions& options = {}) {
  for (const test::OpCase& c : test::computeOpCases()) {
    if (c.name != name) continue;
    auto s = std::make_unique<VtcSession>(c.build(), defaultGpuPreset(), options);
    s->select(EdgeConstraintSpecs{});
    return s;
  }
  raise(ErrorKind::Internal, "no compute op case '{}'", name);
}

TEST_CASE("the wgmma cases run their float GEMMs on gemm_wgmma_f32", "[codegen][ops]") {
  // compute_op_gpu_test checks them on a GPU; they test gemm_wgmma_f32 only if they reach it. The
  // transB Gemm reads its weight with k contiguous. The optimised plan reads the sliced weight in
  // place (rows of 136 floats); the baseline copies it into rows of 130, which wgmma's float4s
  // cannot take.
  const std::unique_ptr<VtcSession> s = caseSession("MatMul on wgmma f32");
  const GeneratedPlan optimized = generateCuda(s->optimizedPlan());
  CHECK(test::countOccurrences(optimized.source, "tcx::gemm_wgmma_f32_body<") == 3);
  CHECK(test::countOccurrences(optimized.source, "tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous,") == 1);
  CHECK(test::countOccurrences(optimized.source, "p.b = {static_cast<const float*>(b.p[") == 3);
  CHECK(test::countOccurrences(optimized.source, ", 0, 136, 1};") == 1);
  CHECK(test::countOccurrences(optimized.source, "p.m = 8000;") == 2);
  const GeneratedPlan baseline = generateCuda(s->baselinePlan());
  CHECK(test::countOccurrences(baseline.source, "tcx::gemm_wgmma_f32_body<") == 2);
  // The few-row cases take gemm_tiled's small tiles instead (tiledRowsFor), the transB Gemm too.
  const GeneratedPlan few = generateCuda(caseSession("Gemm_m200 f32")->optimizedPlan());
  CHECK(test::countOccurrences(few.source, "tcx::gemm_wgmma_f32_body<") == 0);
  CHECK(test::countOccurrences(few.source, "__launch_bounds__(tcx::tiledThreads(64), tcx::tiledMinBlocks(64))") == 4);
  CHECK(test::countOccurrences(few.source, "tcx::gemm_tiled_body<float, tcx::Access::ColContiguous, "
                                           "tcx::Access::RowContiguous, 64,") == 1);
}

TEST_CASE("the float pointwise convolution case runs two of its convolutions as tf32 GEMMs on wgmma channels-last",
          "[codegen][ops]") {
  // compute_op_gpu_test checks gemm_wgmma_f32's tf32 form through this case (its channels-last run)
  // only if it reaches it: stored channels-last, the 72- and 136-channel convolutions do
  // (GemmLowering's matchTf32PointwiseConv); the 24-channel one stays on conv_implicit_gemm (the
  // 20-channel one over the concatenation is staged). As exported, a GEMM reads pixels contiguous
  // only where it computes its input as it loads.
  const GeneratedPlan code =
      generateCuda(caseSession("Conv pointwise f32", {.layouts = LayoutPolicy::ChannelsLast})->optimizedPlan());
  CHECK(test::launchesDescribed(code, "as tf32 gemm").size() == 2);
  // The 72-channel one reads its stored input channels-last; the 136-channel one applies the Abs as
  // it loads, reading the graph's input as given (pixels contiguous).
  CHECK(test::countOccurrences(code.source, "tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous, true,") == 1);
  CHECK(test::countOccurrences(code.source, "tcx::gemm_wgmma_f32_body<tcx::Access::ColContiguous, true,") == 1);
  INFO("as exported (pixels contiguous) only the 136-channel one keeps the GEMM, which applies the Abs as it loads");
  const GeneratedPlan nchw = generateCuda(caseSession("Conv pointwise f32")->optimizedPlan());
  CHECK(test::launchesDescribed(nchw, "as tf32 gemm").size() == 1);
  CHECK(test::launchesDescribed(nchw, "conv 1x1 24->136 after Abs as tf32 gemm").size() == 1);
}
