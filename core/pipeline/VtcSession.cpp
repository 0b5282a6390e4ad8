#include "pipeline/VtcSession.h"

#include "cost/CostOracle.h"
#include "fusion/FusionPass.h"
#include "ops/Verifier.h"

#include <fmt/format.h>
#include <set>

namespace tcx {

VtcSession::VtcSession(Graph graph, const GpuPreset& preset, PlanOptions options)
    : graph_(std::make_unique<Graph>(std::move(graph))), costModel_(preset), options_(options) {
  PassPipeline<VtcSession> open("vtc", &VtcSession::verifyState);
  open.add("fusion", [](VtcSession& s) { s.kernels_ = std::make_unique<KernelGraph>(fuseOperators(*s.graph_)); });
  open.add("vtog", [](VtcSession& s) {
    s.vtog_ = std::make_unique<Vtog>(buildVtog(*s.kernels_));
    s.costOracle_ = std::make_unique<CostOracle>(*s.kernels_, *s.vtog_, s.costModel_, s.options_);
    s.noStrategy_ = std::make_unique<PointsToGraph>(*s.vtog_, std::set<int>{});
  });
  // The baseline is what a compiler without virtual tensors runs: every
  // data-movement op a kernel, functional updates into fresh buffers; its
  // tensors stored in the same layouts, so that the two plans compare.
  open.add("baseline-plan", [](VtcSession& s) {
    s.baseline_ = std::make_unique<ExecPlan>(
        lowerToPlan(*s.kernels_, *s.noStrategy_, PlanOptions{.donateInputs = false, .layouts = s.options_.layouts}));
  });
  open.add("baseline-estimate", [](VtcSession& s) { s.baselineLatency_ = s.estimate(*s.baseline_); });
  open.run(*this, &timings_);
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

// What select() computes, built aside and adopted only once every pass has
// run, so that rejected constraints leave the session as it was.
struct VtcSession::Selection {
  GreedyResult greedy;
  std::unique_ptr<PointsToGraph> strategy;
  std::unique_ptr<ExecPlan> optimized;
  PlanLatency optimizedLatency;
};

void VtcSession::select(const StrategyConstraints& constraints, SavingOracle* oracle) {
  SavingOracle& o = oracle ? *oracle : *costOracle_;
  PassPipeline<Selection> pipeline("vtc-select", [](const Selection& s) {
    if (!s.strategy) return;
    std::vector<std::string> problems = s.strategy->problems();
    TCX_CHECK(problems.empty(), ErrorKind::Internal, "invalid points-to graph: {}", problems.front());
  });
  pipeline.add("global-greedy", [&](Selection& s) { s.greedy = runGlobalGreedy(*vtog_, o, constraints); });
  pipeline.add("points-to", [&](Selection& s) { s.strategy = std::make_unique<PointsToGraph>(*vtog_, s.greedy.selected); });
  pipeline.add("plan-lowering", [&](Selection& s) {
    s.optimized = std::make_unique<ExecPlan>(lowerToPlan(*kernels_, *s.strategy, options_));
  });
  pipeline.add("estimate", [&](Selection& s) { s.optimizedLatency = estimate(*s.optimized); });
  Selection next;
  PassTimings timings;
  pipeline.run(next, &timings);

  constraints_ = constraints;
  greedy_ = std::move(next.greedy);
  selectionSource_ = o.source();
  strategy_ = std::move(next.strategy);
  optimized_ = std::move(next.optimized);
  optimizedLatency_ = std::move(next.optimizedLatency);
  baselineLatency_ = estimate(*baseline_);
  measuredOn_.clear();
  timings_.forget(pipeline.name());
  timings_.append(timings);
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

void VtcSession::verifyState() const {
  verifyGraph(*graph_);
  if (!kernels_) return;
  std::set<const Node*> fused;
  for (const FusedKernel& k : kernels_->kernels())
    for (const Node* n : k.nodes)
      TCX_CHECK(fused.insert(n).second, ErrorKind::Internal, "fusion placed node '{}' in two kernels", n->name());
  for (const Node* n : graph_->nodes())
    TCX_CHECK(fused.count(n), ErrorKind::Internal, "fusion left node '{}' out of every kernel", n->name());
}

} // namespace tcx
