#pragma once
// The saving oracle of VTC Algorithm 2 as the paper runs it: each strategy
// the global greedy asks about is lowered to a plan, compiled (NVRTC, cached
// by source) and timed on the GPU; the latency is the median end-to-end
// time of the plan's kernels. Measurements are kept in memory and on disk
// (CompileCache::cacheRoot()/latency), keyed by the generated source, the
// device and the repetitions: the greedy's re-measurement of the edges into
// the chosen node costs nothing twice, and a re-run of the same model
// compiles and times nothing.

#include "exec/RandomInputs.h"
#include "plan/PlanLowering.h"
#include "profiler/KernelTimer.h"
#include "profiler/Nvrtc.h"
#include "vt/SavingOracle.h"

#include <map>
#include <set>

namespace tcx {
class KernelGraph;
class Vtog;
} // namespace tcx

namespace tcx::gpu {

class ProfileOracle : public SavingOracle {
public:
  // Raises Unsupported without a device.
  ProfileOracle(const KernelGraph& kernels, const Vtog& vtog, PlanOptions options, int repetitions = 10);

  double latency(const std::set<int>& selected) override;
  std::string source() const override;
  bool measured() const override { return true; }
  int plansTimed() const { return static_cast<int>(measured_.size()); }

private:
  const KernelGraph& kernels_;
  const Vtog& vtog_;
  PlanOptions options_;
  TimerOptions timer_;
  NvrtcCompiler compiler_;
  std::map<std::string, Tensor> inputs_;
  std::map<std::set<int>, double> measured_;
  std::string diskCache_; // "" when there is no cache directory
};

} // namespace tcx::gpu
