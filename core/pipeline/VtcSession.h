#pragma once
// Data-movement elimination end to end, as one object the batch mode and
// the explorer share: fusion -> VTOG (Algorithm 1) -> global greedy
// (Algorithm 2) under the user's constraints -> points-to graph -> plans
// (baseline: every data-movement op a kernel; optimized) -> latency and
// memory. Changing constraints re-runs selection only.
//
// Both halves are pass pipelines (passes/PassPipeline.h): "vtc" (fusion,
// vtog, baseline-plan, baseline-estimate) when the session opens and
// "vtc-select" (global-greedy, points-to, plan-lowering, estimate) on each
// select(), timed into passTimings() and verified after every pass when
// verification is on.

#include "cost/CostModel.h"
#include "fusion/KernelGraph.h"
#include "plan/ExecPlan.h"
#include "passes/PassPipeline.h"
#include "plan/PlanLowering.h"
#include "vt/GlobalGreedy.h"
#include "vt/PointsToGraph.h"
#include "vt/Vtog.h"

#include <memory>
#include <string>
#include <vector>

namespace tcx {

class CostOracle;

// Edge constraints as users write them: "e12" or "from->to" tensor names.
struct EdgeConstraintSpecs {
  std::vector<std::string> accept, force, forbid;
};

struct PlanLatency {
  double seconds = 0;
  double dataMovementSeconds = 0;
  double computeSeconds = 0;
  std::vector<KernelEstimate> perKernel; // parallel to the plan's kernels
};

class VtcSession {
public:
  // Takes the graph; `oracle` null means the cost model of `preset`.
  VtcSession(Graph graph, const GpuPreset& preset, PlanOptions options = {});
  ~VtcSession();

  const Graph& graph() const { return *graph_; }
  const KernelGraph& kernels() const { return *kernels_; }
  const Vtog& vtog() const { return *vtog_; }
  const CostModel& costModel() const { return costModel_; }

  // Runs selection with the cost model (or `oracle`, e.g. a GPU profiler)
  // under these constraints; raises InvalidArgument for unknown edges or
  // contradictory constraints.
  void select(const EdgeConstraintSpecs& specs, SavingOracle* oracle = nullptr);
  void select(const StrategyConstraints& constraints, SavingOracle* oracle = nullptr);

  const StrategyConstraints& constraints() const { return constraints_; }
  const GreedyResult& greedy() const { return greedy_; }
  const PointsToGraph& strategy() const { return *strategy_; }
  const ExecPlan& baselinePlan() const { return *baseline_; }
  const ExecPlan& optimizedPlan() const { return *optimized_; }
  const PlanLatency& baselineLatency() const { return baselineLatency_; }
  const PlanLatency& optimizedLatency() const { return optimizedLatency_; }
  // Where the plans' per-kernel latencies come from ("estimated (h100-sxm)",
  // or "measured (NVIDIA H200)" once setMeasuredLatency was called).
  std::string latencySource() const {
    return measuredOn_.empty() ? costModel_.sourceLabel() : "measured (" + measuredOn_ + ")";
  }
  bool latencyMeasured() const { return !measuredOn_.empty(); }
  // The GPU the latencies were measured on, or the cost model's preset.
  std::string latencyDevice() const { return measuredOn_.empty() ? costModel_.preset().description : measuredOn_; }
  // Replaces the estimates of both plans with latencies measured on the GPU
  // named `device` (per kernel; bytes and flops keep the cost model's
  // counts). The next select() estimates again.
  void setMeasuredLatency(PlanLatency baseline, PlanLatency optimized, std::string device);
  // Where the greedy's savings came from (the oracle it was given).
  const std::string& selectionSource() const { return selectionSource_; }

  int resolveEdge(const std::string& spec) const;

  // The times of the "vtc" pipeline and of the latest "vtc-select".
  const PassTimings& passTimings() const { return timings_; }

private:
  struct Selection;
  PlanLatency estimate(const ExecPlan& plan) const;
  // The invariants the passes keep: the graph verifies, fusion covers every
  // node exactly once, the chosen points-to graph is valid.
  void verifyState() const;

  std::unique_ptr<Graph> graph_;
  std::unique_ptr<KernelGraph> kernels_;
  std::unique_ptr<Vtog> vtog_;
  CostModel costModel_;
  PlanOptions options_;
  // Kept across select() calls: its per-kernel estimates stay valid, so a
  // changed constraint re-estimates only what the new choices touch.
  std::unique_ptr<CostOracle> costOracle_;
  StrategyConstraints constraints_;
  GreedyResult greedy_;
  std::unique_ptr<PointsToGraph> strategy_;
  std::unique_ptr<PointsToGraph> noStrategy_;
  std::unique_ptr<ExecPlan> baseline_, optimized_;
  PlanLatency baselineLatency_, optimizedLatency_;
  std::string selectionSource_;
  std::string measuredOn_;
  PassTimings timings_;
};

} // namespace tcx
