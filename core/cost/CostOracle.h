#pragma once
// The saving oracle of the estimated mode: plan latency from the cost model.

#include "cost/CostModel.h"
#include "plan/PlanLowering.h"
#include "vt/SavingOracle.h"

namespace tcx {

class CostOracle : public SavingOracle {
public:
  CostOracle(const KernelGraph& kernels, const Vtog& vtog, CostModel model, PlanOptions options = {})
      : kernels_(kernels), vtog_(vtog), model_(std::move(model)), options_(options) {}

  double latency(const std::set<int>& selected) override;
  std::string source() const override { return model_.sourceLabel(); }
  bool measured() const override { return false; }

private:
  const KernelGraph& kernels_;
  const Vtog& vtog_;
  CostModel model_;
  PlanOptions options_;
};

} // namespace tcx
