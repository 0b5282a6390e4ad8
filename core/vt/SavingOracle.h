#pragma once
// What the global greedy asks to rank strategies: the end-to-end latency
// of the plan a set of chosen VTOG edges gives. VTC Algorithm 2 measures it
// by profiling; the cost model estimates it when no GPU is present. The
// saving of adding edges P to C is latency(C) - latency(C + P): w(e) of
// VTC equation (4).

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tcx {

class SavingOracle {
public:
  virtual ~SavingOracle() = default;
  // Seconds for the strategy that chooses `selected` (a valid points-to graph).
  virtual double latency(const std::set<int>& selected) = 0;
  // w(P) = latency(chosen) - latency(chosen + cover), for oracles that can
  // answer it from the part of the plan the cover affects (the cost model,
  // whose latency is a sum over kernels); nullopt: the greedy asks latency()
  // for both strategies (a GPU times whole plans).
  virtual std::optional<double> localSaving(const std::set<int>& chosen, const std::vector<int>& cover) {
    (void)chosen;
    (void)cover;
    return std::nullopt;
  }
  // "estimated (h100-sxm)" or "measured (NVIDIA H100 80GB HBM3)".
  virtual std::string source() const = 0;
  virtual bool measured() const = 0;
};

} // namespace tcx
