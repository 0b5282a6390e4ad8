// The pass pipeline (passes/PassPipeline.h) and its two users: the graph
// cleanup at import and the VTC stages of VtcSession.

#include "Samples.h"

#include "onnx/OnnxImporter.h"
#include "ops/GraphBuilder.h"
#include "ops/OpRegistry.h"
#include "passes/GraphPasses.h"
#include "pipeline/VtcSession.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

// y = Relu(x + x), typed.
Graph addRelu() {
  GraphBuilder b("add_relu");
  Value* x = b.input("x", DType::F32, {2, 3});
  b.output(b.op("Relu", {b.op("Add", {x, x}, {}, "add")}, {}, "relu"));
  return b.finish();
}

std::vector<std::string> passesOf(const PassTimings& timings, const std::string& pipeline) {
  std::vector<std::string> names;
  for (const PassTiming& t : timings.entries())
    if (t.pipeline == pipeline) names.push_back(t.pass);
  return names;
}

} // namespace

TEST_CASE("a pipeline runs its passes in order and times each", "[passes]") {
  std::vector<std::string> ran;
  PassPipeline<int> pipeline("count", [](const int&) {});
  pipeline.add("double", [&](int& x) {
    x *= 2;
    ran.push_back("double");
  });
  pipeline.add("increment", [&](int& x) {
    x += 1;
    ran.push_back("increment");
  });
  int value = 5;
  PassTimings timings;
  pipeline.run(value, &timings, true);
  CHECK(value == 11);
  CHECK(ran == std::vector<std::string>{"double", "increment"});
  CHECK(pipeline.passNames() == ran);
  REQUIRE(timings.entries().size() == 2);
  CHECK(timings.entries()[1].pipeline == "count");
  CHECK(timings.entries()[1].pass == "increment");
  CHECK(timings.entries()[0].seconds >= 0);
  CHECK(timings.totalSeconds() == Approx(timings.entries()[0].seconds + timings.entries()[1].seconds));
}

TEST_CASE("the verifier names the pass that broke the IR, and runs only when asked", "[passes]") {
  PassPipeline<int> pipeline("parity", [](const int& x) {
    TCX_CHECK(x % 2 == 0, ErrorKind::ShapeInference, "{} is odd", x);
  });
  pipeline.add("keep-even", [](int& x) { x += 2; });
  pipeline.add("break-parity", [](int& x) { x += 1; });
  pipeline.add("never-reached", [](int& x) { x = -100; });
  int value = 0;
  try {
    pipeline.run(value, nullptr, true);
    FAIL("the verifier did not fire");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Internal);
    CHECK(std::string(e.what()) == "parity pipeline: the IR is broken after pass 'break-parity': 3 is odd");
  }
  CHECK(value == 3);
  int unverified = 0;
  pipeline.run(unverified, nullptr, false);
  CHECK(unverified == -100);
}

TEST_CASE("ctest runs every test with verification after each pass", "[passes]") {
  CHECK(verifyEachPassByDefault());
}

TEST_CASE("graph cleanup verifies the graph after each pass", "[passes]") {
  PassPipeline<Graph> cleanup = graphCleanupPipeline();
  CHECK(cleanup.passNames() ==
        std::vector<std::string>{"infer-and-fold", "elementwise-out-of-reshapes", "scales-out-of-matmuls",
                                 "batch-norm-to-affine", "dead-code-elimination"});

  // The cleanup pipeline itself, with a pass appended that retypes a value
  // behind the op's back: its own verifier catches it after that pass.
  Graph g = addRelu();
  cleanup.add("retype", [](Graph& graph) { graph.findValue("add")->setType(TensorType{DType::F32, {3, 2}}); });
  CHECK_THROWS_WITH(cleanup.run(g, nullptr, true),
                    Catch::Contains("canonicalize pipeline: the IR is broken after pass 'retype'"));
  CHECK(g.findValue("add")->type().shape == Shape{3, 2}); // the passes before it ran
}

TEST_CASE("import records the cleanup passes' times", "[passes]") {
  PassTimings timings;
  Graph g = importOnnx(TCX_SOURCE_DIR "/samples/shufflenet_v2_unit.onnx", {.timings = &timings});
  CHECK(g.numNodes() > 0);
  CHECK(passesOf(timings, "canonicalize") ==
        std::vector<std::string>{"infer-and-fold", "elementwise-out-of-reshapes", "scales-out-of-matmuls",
                                 "batch-norm-to-affine", "dead-code-elimination"});
}

TEST_CASE("a VTC session times both pipelines and keeps one selection's times", "[passes][vtc]") {
  VtcSession s(samples::buildShufflenetV2Unit({2, 8, 5}), defaultGpuPreset());
  CHECK(passesOf(s.passTimings(), "vtc") ==
        std::vector<std::string>{"fusion", "vtog", "baseline-plan", "baseline-estimate"});
  CHECK(passesOf(s.passTimings(), "vtc-select").empty());
  s.select(StrategyConstraints{});
  s.select(StrategyConstraints{});
  CHECK(passesOf(s.passTimings(), "vtc-select") ==
        std::vector<std::string>{"global-greedy", "points-to", "plan-lowering", "estimate"});
}

TEST_CASE("rejected constraints leave the session's strategy and times as they were", "[passes][vtc]") {
  VtcSession s(samples::buildShufflenetV2Unit({2, 8, 5}), defaultGpuPreset());
  s.select(StrategyConstraints{});
  REQUIRE(!s.vtog().edges().empty());
  const std::set<int> chosen = s.greedy().selected;
  const size_t entries = s.passTimings().entries().size();
  StrategyConstraints contradictory;
  contradictory.forced.insert(0);
  contradictory.forbidden.insert(0);
  CHECK_THROWS_AS(s.select(contradictory), Error);
  CHECK(s.greedy().selected == chosen);
  CHECK(s.strategy().selected() == chosen);
  CHECK(s.passTimings().entries().size() == entries);
}
