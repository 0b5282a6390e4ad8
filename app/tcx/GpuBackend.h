#pragma once
// What the batch commands need from the GPU backend (profiler/). In a build
// without the CUDA toolkit these raise Unsupported with the reason.

#include "pipeline/VtcSession.h"

#include <memory>

namespace tcx::cli {

// VTC Algorithm 2's oracle on the GPU: every strategy timed.
std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession& session, PlanOptions options);
// Times both plans of the session on the GPU and records the latencies in it.
void measureSession(VtcSession& session, int repetitions);

} // namespace tcx::cli
