#pragma once
// Runs an ExecPlan on the CPU: compute kernels gather their inputs through
// their accesses (virtual tensors read through mapping functions), run
// their fused nodes with the registry's reference kernels, and scatter
// their results through their output accesses; data-movement kernels copy
// the regions they still own. Because the arithmetic is the reference
// executor's, a correct plan gives bit-identical outputs: that is the proof
// on the CPU that a virtual-tensor strategy is right.

#include "plan/ExecPlan.h"

#include <map>
#include <string>
#include <vector>

namespace tcx {

// Outputs in graph output order. Inputs are copied first: donated inputs
// are updated in place inside the plan, never the caller's tensors.
std::vector<Tensor> runPlan(const ExecPlan& plan, const std::map<std::string, Tensor>& inputs);

} // namespace tcx
