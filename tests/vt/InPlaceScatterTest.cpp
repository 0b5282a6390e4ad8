// Plan lowering stores a scatter's output in the buffer of the data it
// updates (an in-place update) also when the indices are run-time values,
// so that VTC has no mapping function for the op: under the same rules as
// for the mapped ScatterND of a KV cache, and with the CPU plan executor
// giving the reference's bytes.
#include "MovementOpCases.h"

#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"

#include "support/PlanCheck.h"

#include <catch2/catch.hpp>

using namespace tcx;
using tcx::test::requireBitIdentical;

namespace {

// Whether the optimised plan stores `out` in `data`'s buffer; both plans
// run exactly.
bool sharesBuffer(VtcSession& s, const std::string& data, const Value* out) {
  s.select(EdgeConstraintSpecs{});
  requireBitIdentical(s, s.baselinePlan(), 7);
  requireBitIdentical(s, s.optimizedPlan(), 8);
  const ExecPlan& plan = s.optimizedPlan();
  const Value* in = s.graph().findValue(data);
  REQUIRE(in);
  REQUIRE(plan.bufferOf(out) >= 0);
  return plan.bufferOf(out) == plan.bufferOf(in);
}

// ScatterElements of run-time ids into `data`, an intermediate (x + 1)
// that, if `alsoRead`, a Neg reads too.
Graph scatterIntoIntermediate(bool alsoRead) {
  GraphBuilder b("scatter_elements_into_intermediate");
  Value* x = b.input("x", DType::F32, {4, 5});
  Value* data = b.op("Add", {x, b.constant("one", Tensor::scalar(1.0f))}, {}, "data");
  Value* ids = b.input("ids", DType::I64, {3, 5});
  b.output(b.op("ScatterElements", {data, ids, b.input("updates", DType::F32, {3, 5})},
                attrs({{"reduction", "add"}})));
  if (alsoRead) b.output(b.op("Neg", {data}));
  return b.finish();
}

} // namespace

TEST_CASE("a ScatterND of run-time rows updates its donated input in place", "[vtc][in-place]") {
  VtcSession s(test::inPlaceScatterND(), defaultGpuPreset());
  const Value* out = s.graph().outputs()[0];
  CHECK(sharesBuffer(s, "data", out));
  const ExecPlan& plan = s.optimizedPlan();
  CHECK(plan.buffers[plan.bufferOf(out)].name == "data (in place: " + out->name() + ")");
  // The baseline donates no input.
  CHECK(s.baselinePlan().bufferOf(out) != s.baselinePlan().bufferOf(s.graph().findValue("data")));
}

TEST_CASE("without donated inputs the scatter writes a buffer of its own", "[vtc][in-place]") {
  VtcSession s(test::inPlaceScatterND(), defaultGpuPreset(), PlanOptions{.donateInputs = false});
  CHECK_FALSE(sharesBuffer(s, "data", s.graph().outputs()[0]));
}

TEST_CASE("a scatter updates an intermediate in place unless another op reads it", "[vtc][in-place]") {
  {
    VtcSession s(scatterIntoIntermediate(false), defaultGpuPreset());
    const Value* out = s.graph().outputs()[0];
    CHECK(sharesBuffer(s, "data", out));
    // An intermediate needs no donation: the baseline updates it in place too.
    CHECK(s.baselinePlan().bufferOf(out) == s.baselinePlan().bufferOf(s.graph().findValue("data")));
  }
  VtcSession s(scatterIntoIntermediate(true), defaultGpuPreset());
  CHECK_FALSE(sharesBuffer(s, "data", s.graph().outputs()[0]));
}

TEST_CASE("a decode step's KV-cache update with a run-time position is in place", "[vtc][in-place]") {
  VtcSession s(test::kvCacheDecodeStep(), defaultGpuPreset());
  CHECK(sharesBuffer(s, "cache", s.graph().outputs()[0]));
}
