// The greedy's savings oracle against the plans it stands for, on the real
// models: cost/CostOracle.h lowers one kernel at a time under only the chosen
// edges that kernel can reach, so its latency must be what estimating the
// whole plan gives, or the greedy ranks savings the plans do not have. The
// strategies are taken from the VTOG, not from a greedy this oracle drives:
// none, each edge that is a valid strategy alone, and all of those together
// where they are one. (LayoutTest checks one kernel's lowering against the
// whole plan's where in-place sharing decides a layout.)
#include "RealModels.h"

#include "cost/CostOracle.h"
#include "onnx/OnnxImporter.h"
#include "pipeline/VtcSession.h"
#include "plan/PlanLowering.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

using namespace tcx;

TEST_CASE("the cost oracle's latency is the whole plan's estimate under each strategy", "[models][cost]") {
  for (const test::RealModel& m : test::realModels("small")) {
    if (m.exporter != "dynamo") continue;
    for (LayoutPolicy layouts : {LayoutPolicy::AsExported, LayoutPolicy::ChannelsLast}) {
      if (layouts == LayoutPolicy::ChannelsLast && m.kind != "cnn") continue;
      INFO(m.path << ", " << layoutPolicyName(layouts));
      const PlanOptions options{.layouts = layouts};
      VtcSession s(importOnnx(m.path), defaultGpuPreset(), options);
      CostOracle oracle(s.kernels(), s.vtog(), s.costModel(), options);
      auto wholePlan = [&](const std::set<int>& selected) {
        double seconds = 0;
        for (const PlanKernel& k : lowerToPlan(s.kernels(), PointsToGraph(s.vtog(), selected), options).kernels)
          seconds += s.costModel().estimate(k).seconds;
        return seconds;
      };
      std::vector<std::set<int>> strategies{{}};
      std::set<int> together;
      for (size_t e = 0; e < s.vtog().edges().size(); ++e) {
        const std::set<int> alone{static_cast<int>(e)};
        if (!PointsToGraph(s.vtog(), alone).valid()) continue;
        strategies.push_back(alone);
        together.insert(static_cast<int>(e));
      }
      REQUIRE(strategies.size() > 1);
      if (PointsToGraph(s.vtog(), together).valid()) strategies.push_back(together);
      for (const std::set<int>& selected : strategies) {
        INFO(selected.size() << " edges, the first " << (selected.empty() ? -1 : *selected.begin()));
        CHECK(oracle.latency(selected) == Approx(wholePlan(selected)).epsilon(1e-9));
      }
    }
  }
}
