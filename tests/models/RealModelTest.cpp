// The real-model suite on the CPU, at the small size: every export imports,
// optimises, and runs, on weights drawn as PyTorch initialises them
// (exec/RandomInputs.h); its outputs are finite, and the baseline and the
// VTC-optimised plans compute them bit for bit as the reference executor
// does (exec/PlanExecutor.h: a plan runs the reference kernels, so any
// difference is a wrong mapping function, a missed region or a bad buffer).
// Both plans' CUDA is generated too, and its buffer bindings checked.
#include "../codegen/CodegenTestUtil.h"
#include "RealModels.h"
#include "support/PlanCheck.h"

#include "codegen/CudaCodegen.h"
#include "exec/Checksum.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "onnx/OnnxImporter.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <variant>

using namespace tcx;

namespace {

bool finite(const Tensor& t) {
  for (int64_t i = 0; i < t.numElements(); ++i)
    if (!std::isfinite(t.elementAsDouble(i))) return false;
  return true;
}

// A kernel's code names slots that each launch binds to a buffer and a byte
// offset (codegen/GeneratedPlan.h), so the layers of a transformer compile
// one set of kernels. tests/gpu runs the shared kernels against the
// reference; here each launch's entry is defined and each binding lies
// inside its buffer. The same holds for the vendor alternatives' epilogue
// launches and for the operands their library calls read
// (codegen/VendorCall.h), which every model's GEMMs or convolutions offer:
// every element they read, also for a 1x1 convolution run as a GEMM.
int64_t bufferBytes(const GeneratedPlan& code, const ExecPlan& plan, int buffer) {
  const auto b = static_cast<size_t>(buffer);
  return b < code.numPlanBuffers ? plan.buffers[b].bytes : code.scratchBytes[b - code.numPlanBuffers];
}

void checkGeneratedCode(const test::RealModel& m, const ExecPlan& plan) {
  const GeneratedPlan code = generateCuda(plan);
  auto checkInside = [&](const BufferBinding& binding) {
    REQUIRE(binding.buffer >= 0);
    REQUIRE(static_cast<size_t>(binding.buffer) < code.numBuffers());
    CHECK(binding.byteOffset >= 0);
    CHECK(binding.byteOffset < std::max<int64_t>(bufferBytes(code, plan, binding.buffer), 1));
  };
  auto checkLaunch = [&](const GeneratedLaunch& l) {
    INFO("launch " << l.entry << ": " << l.what);
    CHECK(code.source.find(" " + l.entry + "(Buffers b)") != std::string::npos);
    CHECK(l.buffers.size() <= code.bufferSlots);
    for (const BufferBinding& binding : l.buffers)
      if (!binding.isValue()) checkInside(binding); // a launch value names no buffer
  };
  for (const GeneratedLaunch& l : code.launches) checkLaunch(l);
  // Every element a GEMM reads, not just its first, lies inside the buffer.
  auto checkGemm = [&](const VendorGemm& g) {
    const int64_t elem = elemBytes(g.type);
    auto last = [&](const BufferBinding& binding, int64_t rows, int64_t cols, const std::array<int64_t, 3>& strides) {
      return binding.byteOffset +
             elem * ((g.batch - 1) * strides[0] + (rows - 1) * strides[1] + (cols - 1) * strides[2] + 1);
    };
    checkInside(g.a);
    checkInside(g.b);
    CHECK(last(g.a, g.m, g.k, g.aStrides) <= bufferBytes(code, plan, g.a.buffer));
    CHECK(last(g.b, g.k, g.n, g.bStrides) <= bufferBytes(code, plan, g.b.buffer));
  };
  for (const VendorAlternative& a : code.vendorAlternatives) {
    checkLaunch(a.epilogue);
    // It replaces its kernel's last launch; a prelude computes its input where the kernel computes it as it loads.
    CHECK(std::ranges::count(code.launches, a.planKernel, &GeneratedLaunch::planKernel) >= 1);
    if (a.prelude) {
      checkLaunch(*a.prelude);
      CHECK(a.input == code.vendorInput());
    }
    if (const auto* g = std::get_if<VendorGemm>(&a.call)) {
      checkGemm(*g);
      continue;
    }
    const auto& c = std::get<VendorConv>(a.call);
    checkInside(c.x);
    checkInside(c.weight);
    // A 1x1 convolution over the model's own layouts is a GEMM too.
    if (c.kh == 1 && c.kw == 1 && c.strideH == 1 && c.strideW == 1 && c.padH == 0 && c.padW == 0 && c.groups == 1) {
      INFO(describeVendorCall(c));
      const std::optional<VendorGemm> g = convolutionAsGemm(c);
      REQUIRE(g);
      checkGemm(*g);
    }
  }
  CHECK(!code.vendorAlternatives.empty());
  size_t shared = 0;
  for (size_t k = 0; k < code.codeKernel.size(); ++k) shared += code.codeKernel[k] != static_cast<int>(k);
  // Every transformer export has at least two identical layers.
  if (m.kind == "decoder" || m.kind == "encoder" || m.kind == "vit") CHECK(shared > 0);
}

} // namespace

TEST_CASE("the suite has the models and exporters issue 19 asks for", "[models]") {
  const std::vector<test::RealModel> small = test::realModels("small");
  std::map<std::string, std::set<std::string>> modelsOfKind;
  std::set<std::string> dynamo, torchscript;
  for (const test::RealModel& m : small) {
    modelsOfKind[m.kind].insert(m.name);
    (m.exporter == "dynamo" ? dynamo : torchscript).insert(m.name);
  }
  size_t models = 0;
  for (const auto& [kind, names] : modelsOfKind) models += names.size();
  CHECK(models >= 20);
  CHECK(modelsOfKind["decoder"].size() >= 5);
  CHECK(modelsOfKind["encoder"].size() >= 1);
  CHECK(modelsOfKind["cnn"].size() >= 5);
  CHECK(modelsOfKind["vit"].size() >= 2);
  CHECK(modelsOfKind["decode"].size() >= 1);
  // Both exporters, for most models: they write different graphs.
  CHECK(dynamo.size() >= 20);
  CHECK(torchscript.size() >= 15);
  // The full-size exports are the same set.
  CHECK(test::realModels("full").size() == small.size());
}

TEST_CASE("every real model imports, optimises and runs, its plans matching the reference and sharing kernels",
          "[models]") {
  for (const test::RealModel& m : test::realModels("small")) {
    SECTION(m.name + "." + m.exporter) {
      INFO(m.path << " (" << m.what << ")");
      VtcSession s(importOnnx(m.path), defaultGpuPreset());
      s.select(EdgeConstraintSpecs{});
      const auto inputs = randomInputs(s.graph(), 7);
      const ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
      REQUIRE(ref.outputs.size() == s.graph().outputs().size());
      for (size_t i = 0; i < ref.outputs.size(); ++i) {
        INFO("output " << s.graph().outputs()[i]->name());
        CHECK(finite(ref.outputs[i]));
        CHECK(checksum(ref.outputs[i]).meanAbs > 0);
      }
      for (const ExecPlan* plan : {&s.baselinePlan(), &s.optimizedPlan()}) {
        INFO((plan == &s.baselinePlan() ? "baseline plan" : "optimised plan"));
        test::requireBitIdentical(s, *plan, inputs, ref);
        checkGeneratedCode(m, *plan);
      }
    }
  }
}


TEST_CASE("the real CNNs stored channels-last match the reference, and their code generates", "[models][layout]") {
  for (const test::RealModel& m : test::realModels("small")) {
    if (m.kind != "cnn" || m.exporter != "dynamo") continue;
    SECTION(m.name) {
      INFO(m.path);
      VtcSession s(importOnnx(m.path), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::ChannelsLast});
      s.select(EdgeConstraintSpecs{});
      const ExecPlan& plan = s.optimizedPlan();
      CHECK(std::ranges::count_if(plan.buffers, [](const PlanBuffer& b) { return !b.layout.isIdentity(); }) > 0);
      test::requireBitIdentical(s, plan, 7);
      checkGeneratedCode(m, plan);
    }
  }
}

TEST_CASE("DenseNet-121's BN-ReLUs are its 1x1 convolutions' prologues, with statistics as inputs or constants",
          "[models]") {
  // 58 dense layers and 3 transitions each apply BN-ReLU to the concatenation of the features so far, then a 1x1
  // (fusion rule 4); the GEMM applies it as it loads, cuDNN's alternative after a prelude that stages it. The
  // export passes the statistics as graph inputs; a torchvision export with initializers holds them as constants,
  // which passes/BatchNormToAffine makes a Mul and an Add: bound here (ImportOptions::inputBindings) to the values
  // the first run drew.
  const std::string path = std::string(TCX_SOURCE_DIR) + "/models/real/small/densenet121.dynamo.onnx";
  Graph asExported = importOnnx(path);
  const std::map<std::string, Tensor> inputs = randomInputs(asExported, 7);
  ImportOptions withConstants;
  for (const Node* n : asExported.nodes())
    if (n->opType() == "BatchNormalization")
      for (size_t i = 1; i < n->numInputs(); ++i)
        if (n->input(i)->isGraphInput()) withConstants.inputBindings[n->input(i)->name()] = inputs.at(n->input(i)->name());
  REQUIRE(!withConstants.inputBindings.empty());
  Graph folded = importOnnx(path, withConstants);
  CHECK(std::ranges::none_of(folded.nodes(), [](const Node* n) { return n->opType() == "BatchNormalization"; }));
  std::map<std::string, Tensor> remaining;
  for (const Value* v : folded.inputs()) remaining[v->name()] = inputs.at(v->name());
  const Tensor before = ReferenceExecutor(asExported).run(inputs).outputs.at(0);
  const Tensor after = ReferenceExecutor(folded).run(remaining).outputs.at(0);
  REQUIRE(before.numElements() == after.numElements());
  for (int64_t i = 0; i < before.numElements(); ++i)
    CHECK(after.elementAsDouble(i) == Approx(before.elementAsDouble(i)).epsilon(1e-4).margin(1e-5));

  // As element-wise ops, the first layer of each block's BN-ReLU joins the pooling before it as its epilogue
  // (rule 2 runs before rule 4), and the last one the global mean after it as its prologue (rule 3): 57
  // prologues of 1x1s, four poolings that store a second output, no store kernel of its own.
  struct Expected {
    Graph* graph;
    const char* ops;
    size_t prologues, stores;
  };
  for (const Expected& e : {Expected{&asExported, "BatchNormalization+Relu", 61, 1}, Expected{&folded, "Mul+Add+Relu", 57, 4}}) {
    INFO(e.ops);
    VtcSession s(std::move(*e.graph), defaultGpuPreset());
    s.select(EdgeConstraintSpecs{});
    test::requireBitIdentical(s, s.optimizedPlan(), 7);
    const GeneratedPlan code = generateCuda(s.optimizedPlan());
    const std::vector<GeneratedLaunch> fused = test::launchesDescribed(code, std::string("after ") + e.ops + " as tf32");
    CHECK(fused.size() == e.prologues);
    CHECK(test::launchesDescribed(code, "store ").size() == e.stores);
    // The GEMMs, and their preludes, take K as a launch value: those that differ only in K (a block's layers)
    // share one kernel's code.
    std::map<std::string, std::set<std::string>> entriesBesidesK;
    const std::regex k(R"(conv 1x1 \d+->|x\d+ \(batch)");
    for (const GeneratedLaunch& l : fused) entriesBesidesK[std::regex_replace(l.what, k, "")].insert(l.entry);
    CHECK(entriesBesidesK.size() < fused.size()); // some GEMMs differ only in K
    for (const auto& [what, entries] : entriesBesidesK) {
      INFO(what);
      CHECK(entries.size() == 1);
    }
    for (const GeneratedLaunch& l : fused) {
      const auto offered = std::ranges::find(code.vendorAlternatives, l.planKernel, &VendorAlternative::planKernel);
      REQUIRE(offered != code.vendorAlternatives.end());
      CHECK(offered->prelude);
    }
  }
}

TEST_CASE("serving ResNeXt-50's 1x1 convolutions are each one GEMM over the batch's pixels", "[models][layout]") {
  // At 32 images the plan stores ResNeXt-50 channels-last (LayoutPolicy::Auto), so the pixels of all images run
  // at one stride and cuBLAS gets one GEMM of 32 x H x W rows (codegen/VendorCall.h, convolutionAsGemm).
  const std::string path = std::string(TCX_SOURCE_DIR) + "/models/real/serve/resnext50.dynamo.onnx";
  VtcSession s(importOnnx(path), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan code = generateCuda(s.optimizedPlan());
  int pointwise = 0;
  for (const VendorAlternative& a : code.vendorAlternatives) {
    const auto* c = std::get_if<VendorConv>(&a.call);
    if (!c || c->kh != 1 || c->strideH != 1) continue;
    INFO(describeVendorCall(*c));
    ++pointwise;
    CHECK(c->channelsLastResult);
    const std::optional<VendorGemm> g = convolutionAsGemm(*c);
    REQUIRE(g);
    CHECK(g->batch == 1);
    CHECK(g->m == int64_t{c->batch} * c->h * c->w);
    CHECK(g->n == c->cout);
  }
  // Each bottleneck's two, the first stage's projection: 3 + 4 + 6 + 3 blocks.
  CHECK(pointwise >= 2 * 16);
  // The same 33 run their own code as tf32 GEMMs on wgmma (GemmLowering's matchTf32PointwiseConv),
  // every one reading the channels-last pixels with k contiguous (kernels of one shape share code).
  CHECK(test::launchesDescribed(code, "as tf32 gemm").size() == 33);
  CHECK(test::countOccurrences(code.source, "tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous, true,") > 0);
  CHECK(test::countOccurrences(code.source, "tcx::gemm_wgmma_f32_body<tcx::Access::ColContiguous, true,") == 0);
}
