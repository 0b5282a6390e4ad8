#include "pipeline/VtcSession.h"

#include "cost/CostOracle.h"
#include "fusion/FusionPass.h"

#include <fmt/format.h>

namespace tcx {

VtcSession::VtcSession(Graph graph, const GpuPreset& preset, PlanOptions options)
    : graph_(std::make_unique<Graph>(std::move(graph))), costModel_(preset), options_(options) {
  kernels_ = std::make_unique<KernelGraph>(fuseOperators(*graph_));
  vtog_ = std::make_unique<Vtog>(buildVtog(*kernels_));
  costOracle_ = std::make_unique<CostOracle>(*kernels_, *vtog_, costModel_, options_);
  noStrategy_ = std::make_unique<PointsToGraph>(*vtog_, std::set<int>{});
  // The baseline is what a compiler without virtual tensors runs: every
  // data-movement op a kernel, functional updates into fresh buffers.
  baseline_ = std::make_unique<ExecPlan>(lowerToPlan(*kernels_, *noStrategy_, PlanOptions{.donateInputs = false}));
  baselineLatency_ = estimate(*baseline_);
}

VtcSession::~VtcSession() = default;

int VtcSession::resolveEdge(const std::string& spec) const {
  int e = vtog_->findEdge(spec);
  TCX_CHECK(e >= 0, ErrorKind::InvalidArgument,
            "no VTOG edge '{}': name an edge as e<N> or <from>-><to> (tcx optimize lists them)", spec);
  return e;
}

void VtcSession::select(const EdgeConstraintSpecs& specs, SavingOracle* oracle) {
  StrategyConstraints c;
  for (const std::string& s : specs.accept) c.accepted.insert(resolveEdge(s));
  for (const std::string& s : specs.force) c.forced.insert(resolveEdge(s));
  for (const std::string& s : specs.forbid) c.forbidden.insert(resolveEdge(s));
  select(c, oracle);
}

void VtcSession::select(const StrategyConstraints& constraints, SavingOracle* oracle) {
  SavingOracle& o = oracle ? *oracle : *costOracle_;
  GreedyResult result = runGlobalGreedy(*vtog_, o, constraints);
  constraints_ = constraints;
  greedy_ = std::move(result);
  selectionSource_ = o.source();
  strategy_ = std::make_unique<PointsToGraph>(*vtog_, greedy_.selected);
  optimized_ = std::make_unique<ExecPlan>(lowerToPlan(*kernels_, *strategy_, options_));
  optimizedLatency_ = estimate(*optimized_);
  baselineLatency_ = estimate(*baseline_);
  measuredOn_.clear();
}

void VtcSession::setMeasuredLatency(PlanLatency baseline, PlanLatency optimized, std::string device) {
  baselineLatency_ = std::move(baseline);
  optimizedLatency_ = std::move(optimized);
  measuredOn_ = std::move(device);
}

PlanLatency VtcSession::estimate(const ExecPlan& plan) const {
  PlanLatency l;
  for (const PlanKernel& k : plan.kernels) {
    KernelEstimate e = costModel_.estimate(k);
    l.seconds += e.seconds;
    (k.isDataMovement() ? l.dataMovementSeconds : l.computeSeconds) += e.seconds;
    l.perKernel.push_back(e);
  }
  return l;
}

} // namespace tcx
