#pragma once
// Lowering a fused graph and a points-to graph (one virtual-tensor strategy)
// to an ExecPlan.

#include "plan/ExecPlan.h"
#include "plan/Layout.h"
#include "vt/PointsToGraph.h"

namespace tcx {

struct PlanOptions {
  // Let an in-place update (ScatterND into a KV cache) write into the graph
  // input it updates, which the graph output then shares: the caller
  // donates that input, as runtimes do for KV caches. Off, the output is a
  // fresh buffer and the untouched part of the input is copied into it.
  bool donateInputs = true;
  // Which intermediates are stored in another layout than the model states
  // (plan/LayoutChoice.h); their accesses read and write through it.
  LayoutPolicy layouts = LayoutPolicy::Auto;
};

// Kernels: one per compute kernel, reading and writing through the
// tensors' resolutions; one per data-movement op with anything left to copy
// (the regions of its outputs that no virtual tensor already placed).
ExecPlan lowerToPlan(const KernelGraph& kernels, const PointsToGraph& strategy, const PlanOptions& options = {});

// The plan kernel `kernel` becomes under `strategy` (none when a data-movement
// op has nothing left to copy), without the rest of the plan: what lowerToPlan
// gives for it, up to buffer ids. For estimating one kernel at a time.
std::vector<PlanKernel> lowerKernel(const KernelGraph& kernels, const FusedKernel& kernel, const PointsToGraph& strategy,
                                    const PlanOptions& options = {});

} // namespace tcx
