// The greedy's savings oracle against the plans it stands for, on the real
// models: cost/CostOracle.h lowers one kernel at a time under only the chosen
// edges that kernel can reach, so its latency must be what estimating the
// whole plan gives, or the greedy ranks savings the plans do not have.
// Channels-last is where lowering one kernel needs other kernels' in-place
// sharing (PlanLowering.cpp's findInPlaceUpdatesAround).
#include "RealModels.h"

#include "cost/CostOracle.h"
#include "onnx/OnnxImporter.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

using namespace tcx;

TEST_CASE("the cost oracle's latency is the whole plan's estimate, for the baseline and the chosen strategy",
          "[models][cost]") {
  for (const test::RealModel& m : test::realModels("small")) {
    if (m.exporter != "dynamo") continue;
    for (LayoutPolicy layouts : {LayoutPolicy::AsExported, LayoutPolicy::ChannelsLast}) {
      if (layouts == LayoutPolicy::ChannelsLast && m.kind != "cnn") continue;
      INFO(m.path << ", " << layoutPolicyName(layouts));
      const PlanOptions options{.layouts = layouts};
      VtcSession s(importOnnx(m.path), defaultGpuPreset(), options);
      s.select(EdgeConstraintSpecs{});
      CostOracle oracle(s.kernels(), s.vtog(), s.costModel(), options);
      CHECK(oracle.latency({}) == Approx(s.baselineLatency().seconds).epsilon(1e-9));
      CHECK(oracle.latency(s.strategy().selected()) == Approx(s.optimizedLatency().seconds).epsilon(1e-9));
    }
  }
}
