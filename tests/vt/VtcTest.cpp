// Data-movement elimination end to end, proved on the CPU: every strategy
// the greedy or a user constraint produces must give outputs bit-identical
// to the reference executor.
#include "Samples.h"

#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/OpDef.h"
#include "pipeline/VtcSession.h"
#include "plan/LayoutChoice.h"
#include "index/Regions.h"

#include "support/PlanCheck.h"

#include <catch2/catch.hpp>
#include <random>

using namespace tcx;
using tcx::test::requireBitIdentical;

namespace {

const GpuPreset& h100() { return defaultGpuPreset(); }

} // namespace

TEST_CASE("llama decode: every data-movement op between projection and attention vanishes", "[vtc][samples]") {
  VtcSession s(samples::buildLlama3Decode({2, 24, 64, 4, 2, 16, DType::BF16}), h100());
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  CHECK(s.baselinePlan().numDataMovementKernels() == 19);
  CHECK(plan.numDataMovementKernels() == 0);
  CHECK(plan.kernels.size() == 3); // QKV GEMM, attention, output GEMM
  // The projection writes the KV caches directly: the caches' updated
  // outputs live in the donated input buffers.
  const int cache = plan.bufferOf(s.graph().outputs()[1]);
  CHECK(cache == plan.bufferOf(s.graph().findValue("k_cache")));
  // The shared buffer says once which output lives in it, however often it is accessed.
  CHECK(plan.buffers[cache].name == "k_cache (in place: " + s.graph().outputs()[1]->name() + ")");
  CHECK(plan.peakMemoryBytes() < s.baselinePlan().peakMemoryBytes());
  CHECK(s.optimizedLatency().seconds < s.baselineLatency().seconds);
  requireBitIdentical(s, plan, 1);
  requireBitIdentical(s, s.baselinePlan(), 2);
}

TEST_CASE("yolo c3k2: Split and Concat vanish into the concat output", "[vtc][samples]") {
  VtcSession s(samples::buildYolov11C3k2({2, 8, 6}), h100());
  s.select(EdgeConstraintSpecs{});
  CHECK(s.optimizedPlan().numDataMovementKernels() == 0);
  CHECK(s.optimizedPlan().eliminated.size() == 2);
  const Value* concat = s.graph().findValue("/model.2/Concat");
  REQUIRE(concat);
  CHECK_FALSE(s.strategy().isVirtual(concat));
  for (const char* name : {"/model.2/Split_0", "/model.2/Split_1", "/model.2/m.0/Add"}) {
    INFO(name);
    const Value* v = s.graph().findValue(name);
    REQUIRE(v);
    CHECK(s.strategy().resolve(v).physical == std::vector<const Value*>{concat});
  }
  requireBitIdentical(s, s.optimizedPlan(), 3);
}

namespace {

// LayoutChoice stored channels-last, checked against the definition it
// answers lazily: every 4-D physical tensor that is neither a graph input,
// output nor constant and holds (resolve) what a kernel with a convolution
// reads or writes.
void requireLayoutChoiceAsDefined(const VtcSession& s) {
  std::set<const Value*> expected;
  for (const FusedKernel& k : s.kernels().kernels()) {
    if (std::none_of(k.nodes.begin(), k.nodes.end(),
                     [](const Node* n) { return n->op().fusionRole == FusionRole::Convolution; }))
      continue;
    for (const auto* list : {&k.inputs, &k.outputs})
      for (const Value* v : *list)
        if (v->type().shape.size() == 4)
          for (const Value* p : s.strategy().resolve(v).physical)
            if (p->type().shape.size() == 4 && !p->isGraphInput() && !p->isGraphOutput() && !p->isConstant())
              expected.insert(p);
  }
  LayoutChoice choice(s.kernels(), s.strategy(), LayoutPolicy::ChannelsLast);
  for (const Value* v : s.graph().values()) {
    INFO(v->name());
    CHECK(choice.of(v).isIdentity() != (expected.count(v) > 0));
  }
}

// Forbids each greedy edge in turn, then forces each VTOG edge alone: every
// resulting strategy is valid and its plan bit-identical to the reference.
// Returns how many strategies were run and compared, so that a sweep in
// which every constraint throws cannot pass without checking anything.
size_t sweepConstraints(VtcSession& s) {
  size_t checked = 0;
  s.select(EdgeConstraintSpecs{});
  const std::set<int> greedy = s.greedy().selected;
  for (int e : greedy) {
    INFO("forbidden e" << e);
    StrategyConstraints c;
    c.forbidden.insert(e);
    s.select(c);
    CHECK_FALSE(s.greedy().selected.count(e));
    requireBitIdentical(s, s.optimizedPlan(), 5);
    ++checked;
  }
  for (const VtogEdge& e : s.vtog().edges()) {
    INFO("forced e" << e.id);
    StrategyConstraints c;
    c.forced.insert(e.id);
    try {
      s.select(c);
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::InvalidArgument); // a cover that needs other forced edges, or a cycle
      continue;
    }
    CHECK(s.greedy().selected.count(e.id));
    REQUIRE(s.strategy().valid());
    requireLayoutChoiceAsDefined(s);
    requireBitIdentical(s, s.optimizedPlan(), 6);
    ++checked;
  }
  return checked;
}

} // namespace

TEST_CASE("every sample's greedy plan is bit-identical to the reference at reduced shapes", "[vtc][samples]") {
  for (auto& [name, graph] : samples::reducedSamples()) {
    SECTION(name) {
      VtcSession s(std::move(graph), h100());
      s.select(EdgeConstraintSpecs{});
      REQUIRE(s.strategy().valid());
      requireBitIdentical(s, s.optimizedPlan(), 4);
    }
  }
}

TEST_CASE("every sample stays exact under every forced or forbidden edge", "[vtc][constraints]") {
  for (auto& [name, graph] : samples::reducedSamples()) {
    SECTION(name) {
      VtcSession s(std::move(graph), h100());
      const size_t checked = sweepConstraints(s);
      INFO(checked << " strategies checked");
      if (s.baselinePlan().numDataMovementKernels() > 0) {
        REQUIRE(checked > 0);
      } else {
        // Nothing to eliminate (LoRA, RMSNorm + MatMul): no edge to force or forbid.
        REQUIRE(s.vtog().edges().empty());
      }
    }
  }
}

TEST_CASE("contradicting constraints are reported naming the edge", "[vtc][constraints]") {
  VtcSession s(samples::buildShufflenetV2Unit({2, 8, 5}), h100());
  s.select(EdgeConstraintSpecs{});
  const std::set<int> greedy = s.greedy().selected;
  REQUIRE_FALSE(greedy.empty());
  StrategyConstraints both;
  both.forced.insert(*greedy.begin());
  both.forbidden.insert(*greedy.begin());
  CHECK_THROWS_WITH(s.select(both), Catch::Contains("both forced and forbidden"));
  CHECK_THROWS_WITH(s.select(EdgeConstraintSpecs{{}, {"e999"}, {}}), Catch::Contains("no VTOG edge 'e999'"));
}
