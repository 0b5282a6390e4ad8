// The real-model suite on the CPU, at the small size: every export imports,
// optimises, and runs, on weights drawn as PyTorch initialises them
// (exec/RandomInputs.h); its outputs are finite, and the baseline and the
// VTC-optimised plans compute them bit for bit as the reference executor
// does (exec/PlanExecutor.h: a plan runs the reference kernels, so any
// difference is a wrong mapping function, a missed region or a bad buffer).
// Both plans' CUDA is generated too, and its buffer bindings checked.
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
// (codegen/VendorCall.h), which every model's GEMMs or convolutions offer.
void checkGeneratedCode(const test::RealModel& m, const ExecPlan& plan) {
  const GeneratedPlan code = generateCuda(plan);
  auto checkInside = [&](const BufferBinding& binding) {
    REQUIRE(binding.buffer >= 0);
    const auto buffer = static_cast<size_t>(binding.buffer);
    REQUIRE(buffer < code.numBuffers());
    const int64_t bytes =
        buffer < code.numPlanBuffers ? plan.buffers[buffer].bytes : code.scratchBytes[buffer - code.numPlanBuffers];
    CHECK(binding.byteOffset >= 0);
    CHECK(binding.byteOffset < std::max<int64_t>(bytes, 1));
  };
  auto checkLaunch = [&](const GeneratedLaunch& l) {
    INFO("launch " << l.entry << ": " << l.what);
    CHECK(code.source.find(" " + l.entry + "(Buffers b)") != std::string::npos);
    CHECK(l.buffers.size() <= code.bufferSlots);
    for (const BufferBinding& binding : l.buffers) checkInside(binding);
  };
  for (const GeneratedLaunch& l : code.launches) checkLaunch(l);
  for (const VendorAlternative& a : code.vendorAlternatives) {
    checkLaunch(a.epilogue);
    CHECK(std::ranges::count(code.launches, a.planKernel, &GeneratedLaunch::planKernel) == 1);
    if (const auto* g = std::get_if<VendorGemm>(&a.call)) {
      checkInside(g->a);
      checkInside(g->b);
    } else {
      checkInside(std::get<VendorConv>(a.call).x);
      checkInside(std::get<VendorConv>(a.call).weight);
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
