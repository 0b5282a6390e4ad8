// Code generation for ops whose index operands are run-time values, checked
// without a GPU: the scatters' kernels (a copy only when not in place, one
// thread per update, atomics for reductions) and the gathers' stages. The
// CUDA compiles in movement_nvrtc_test and runs in movement_op_gpu_test.
#include "MovementOpCases.h"

#include "codegen/CudaCodegen.h"
#include "pipeline/VtcSession.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

std::vector<const GeneratedLaunch*> launchesOf(const GeneratedPlan& code, const std::string& prefix) {
  std::vector<const GeneratedLaunch*> found;
  for (const GeneratedLaunch& l : code.launches)
    if (l.what.rfind(prefix, 0) == 0) found.push_back(&l);
  return found;
}

Graph caseGraph(const std::string& name) {
  for (test::MovementOpCase& c : test::movementOpCases())
    if (c.name == name) return std::move(c.graph);
  raise(ErrorKind::Internal, "no movement op case '{}'", name);
}

} // namespace

TEST_CASE("an in-place ScatterND writes only its updates", "[codegen][scatter]") {
  VtcSession s(test::inPlaceScatterND(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  // The baseline donates no input: it copies data into a buffer of the output's own first.
  GeneratedPlan baseline = generateCuda(s.baselinePlan());
  CHECK(launchesOf(baseline, "copy data").size() == 1);
  GeneratedPlan code = generateCuda(s.optimizedPlan());
  CHECK(launchesOf(code, "copy data").empty());
  REQUIRE(launchesOf(code, "scatter").size() == 1);
  // One thread per update (three rows of four), not per element of data (24).
  CHECK(code.source.find("i < 12LL") != std::string::npos);
  CHECK(code.source.find("atomicCombine") == std::string::npos);
}

TEST_CASE("a ScatterND whose data is read again copies it first", "[codegen][scatter]") {
  VtcSession s(caseGraph("ScatterND into data read twice"), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan code = generateCuda(s.optimizedPlan());
  REQUIRE(launchesOf(code, "copy data").size() == 1);
  REQUIRE(launchesOf(code, "scatter").size() == 1);
  // The copy runs before the scatter that overwrites its rows.
  CHECK(launchesOf(code, "copy data")[0] < launchesOf(code, "scatter")[0]);
}

TEST_CASE("scatter reductions combine atomically", "[codegen][scatter]") {
  for (const auto& [name, combine] :
       std::vector<std::pair<std::string, std::string>>{{"ScatterND add, f32", "tcx::combine::Add"},
                                                        {"ScatterND max, f16", "tcx::combine::Max"},
                                                        {"ScatterND min, bf16", "tcx::combine::Min"},
                                                        {"ScatterElements add, axis 0", "tcx::combine::Add"}}) {
    INFO(name);
    VtcSession s(caseGraph(name), defaultGpuPreset());
    s.select(EdgeConstraintSpecs{});
    GeneratedPlan code = generateCuda(s.optimizedPlan());
    CHECK(code.source.find("tcx::atomicCombine<" + combine + ">") != std::string::npos);
  }
}

TEST_CASE("the KV-cache update of a decode step writes the new key's elements into the cache", "[codegen][scatter]") {
  VtcSession s(test::kvCacheDecodeStep(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan code = generateCuda(s.optimizedPlan());
  CHECK(launchesOf(code, "copy cache").empty());
  REQUIRE(launchesOf(code, "scatter").size() == 1);
  CHECK(code.source.find("i < 64LL") != std::string::npos); // k's elements, not the cache's 2048
}

TEST_CASE("a Gather of run-time ids is a stage that wraps them", "[codegen][gather]") {
  VtcSession s(caseGraph("Gather run-time ids, axis 0"), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  GeneratedPlan code = generateCuda(s.optimizedPlan());
  CHECK(launchesOf(code, "stage").size() == 1);
  CHECK(code.source.find("tcx::wrapIndex") != std::string::npos);
}
