#pragma once
// Plans on the GPU against the CPU reference executor: the one check that
// every GPU test makes (samples, single ops, real models). Inputs are fresh
// random values, outputs and intermediates are poisoned before the run (an
// element no kernel writes shows as NaN), and the error is measured on the
// scale of each output against its dtype's tolerance (exec/Compare.h
// checkGpuOutputs, as `tcx profile --check` judges).

#include "codegen/VendorCall.h"
#include "pipeline/VtcSession.h"

#include <cstdint>

namespace tcx::test {

// Runs `plan` (one of `session`'s) on the GPU and CHECKs every output
// against the reference executor, with inputs drawn from `seed`: once a
// launch at a time, once launched as timed (GpuPlan::runEnqueued). With
// VendorPolicy::Always every GEMM and convolution that has a vendor
// alternative runs it (and the check requires that each did).
void requireMatchesReference(const VtcSession& session, const ExecPlan& plan, uint64_t seed,
                             VendorPolicy vendor = VendorPolicy::Never);

// Both of `graph`'s plans, the baseline and VTC's optimised one (every
// profitable virtual tensor accepted), lowered with `options`, checked as above.
void requirePlansMatchReference(Graph graph, uint64_t seed, VendorPolicy vendor = VendorPolicy::Never,
                                PlanOptions options = {});

} // namespace tcx::test
