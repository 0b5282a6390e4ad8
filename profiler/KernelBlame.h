#pragma once
// Which part of a plan a GPU failure belongs to. A fault inside a kernel or
// a compile error in generated code means little as "cudaErrorIllegalAddress"
// or "tcx_plan.cu(812): error"; the user needs the plan kernel, the nodes it
// runs and their ops, to find the model's part that tcx got wrong.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"

#include <optional>
#include <string>
#include <string_view>

namespace tcx::gpu {

// "kernel 'fused_12' (nodes '/attn/MatMul' (MatMul), '/attn/Div' (Div))",
// at most a few nodes named.
std::string describePlanKernel(const PlanKernel& kernel);

// The plan kernel whose generated code holds source line `line`; nullopt
// for the shared preamble.
std::optional<int> planKernelAtLine(const GeneratedPlan& code, int line);

// The first "(LINE): error" of an NVRTC log or message; nullopt if none.
std::optional<int> firstErrorLine(std::string_view log);

} // namespace tcx::gpu
