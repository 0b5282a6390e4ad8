#pragma once
// The saving oracle of the estimated mode: plan latency from the cost model.
//
// The cost model's plan latency is a sum over kernels, and a kernel's
// estimate depends only on the chosen VTOG edges its tensors can reach (the
// edges that decide how those tensors resolve to storage, and which regions
// its data-movement op still copies). So the oracle estimates kernel by
// kernel, caches each estimate under those edges alone, and answers a saving
// w(P) from the few kernels the cover P can affect: the greedy on a
// 1,000-op model asks thousands of savings, each of which would otherwise
// lower and estimate the whole plan twice.

#include "cost/CostModel.h"
#include "plan/PlanLowering.h"
#include "vt/SavingOracle.h"

#include <map>
#include <utility>
#include <vector>

namespace tcx {

class CostOracle : public SavingOracle {
public:
  CostOracle(const KernelGraph& kernels, const Vtog& vtog, CostModel model, PlanOptions options = {});

  double latency(const std::set<int>& selected) override;
  std::optional<double> localSaving(const std::set<int>& chosen, const std::vector<int>& cover) override;
  std::string source() const override { return model_.sourceLabel(); }
  bool measured() const override { return false; }

private:
  // Seconds of fused kernel `k`'s plan kernel under `selected`.
  double kernelSeconds(size_t k, const std::set<int>& selected);

  const KernelGraph& kernels_;
  const Vtog& vtog_;
  CostModel model_;
  PlanOptions options_;
  std::vector<std::vector<int>> reach_;       // per fused kernel: the edges its estimate depends on, sorted
  std::vector<std::vector<size_t>> affected_; // per VTOG edge: the fused kernels whose reach holds it
  std::map<std::pair<size_t, std::vector<int>>, double> cache_;
};

} // namespace tcx
