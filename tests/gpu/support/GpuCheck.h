#pragma once
// Plans on the GPU against the CPU reference executor: the one check that
// every GPU test makes (samples, single ops, real models). Inputs are fresh
// random values, outputs and intermediates are poisoned before the run (an
// element no kernel writes shows as NaN), and the error is measured on the
// scale of each output (exec/Compare.h) against a tolerance per dtype.

#include "pipeline/VtcSession.h"

#include <cstdint>

namespace tcx::test {

// GPU and CPU differ in summation order, in transcendental functions and in
// where attention rounds P: a few roundings of the dtype. Float convolutions
// run on tf32 tensor cores (operands rounded to f16's 10-bit mantissa, as
// cuDNN's default), so graphs with one get f16's tolerance. Integer and
// boolean results must match exactly.
double gpuTolerance(DType dtype, bool tf32);
// Whether `graph` has a node that runs on tf32 tensor cores.
bool usesTf32(const Graph& graph);

// Runs `plan` (one of `session`'s) on the GPU and CHECKs every output
// against the reference executor, with inputs drawn from `seed`.
void requireMatchesReference(const VtcSession& session, const ExecPlan& plan, uint64_t seed);

// Both of `graph`'s plans, the baseline and VTC's optimised one (every
// profitable virtual tensor accepted), checked as above.
void requirePlansMatchReference(Graph graph, uint64_t seed);

} // namespace tcx::test
