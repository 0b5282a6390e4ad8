#include "cost/CostOracle.h"

namespace tcx {

double CostOracle::latency(const std::set<int>& selected) {
  PointsToGraph strategy(vtog_, selected);
  return model_.planSeconds(lowerToPlan(kernels_, strategy, options_));
}

} // namespace tcx
