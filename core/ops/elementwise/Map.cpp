#include "ops/elementwise/Map.h"

namespace tcx::elementwise::detail {

BroadcastPlan planBroadcast(const Shape& out, const std::vector<Shape>& inputs) {
  const size_t numOperands = inputs.size() + 1; // the output's strides come last
  std::vector<std::vector<int64_t>> full;
  for (const Shape& in : inputs) full.push_back(broadcastStrides(in, out));
  full.push_back(contiguousStrides(out));

  Shape dims;
  std::vector<std::vector<int64_t>> strides(numOperands);
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    bool mergeable = !dims.empty();
    for (size_t k = 0; k < numOperands && mergeable; ++k)
      mergeable = strides[k].back() == full[k][d] * out[d];
    if (mergeable) {
      dims.back() *= out[d];
      for (size_t k = 0; k < numOperands; ++k) strides[k].back() = full[k][d];
    } else {
      dims.push_back(out[d]);
      for (size_t k = 0; k < numOperands; ++k) strides[k].push_back(full[k][d]);
    }
  }

  BroadcastPlan plan;
  plan.rowSteps.assign(inputs.size(), false);
  if (!dims.empty()) {
    // Inputs are contiguous, so along the innermost dimension each one
    // steps by 1, or by 0 where it is broadcast.
    plan.rowLength = dims.back();
    dims.pop_back();
    for (size_t k = 0; k < inputs.size(); ++k) plan.rowSteps[k] = strides[k].back() != 0;
    for (std::vector<int64_t>& s : strides) s.pop_back();
  }
  plan.outer = std::move(dims);
  plan.outerStrides = std::move(strides);
  return plan;
}

} // namespace tcx::elementwise::detail
