#pragma once
// The proof on the CPU that a plan is right: run by the plan executor, it
// gives the reference executor's outputs bit for bit (exec/PlanExecutor.h).

#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcx::test {

// REQUIREs that `plan` (one of `session`'s), run on `inputs`, gives exactly
// `reference`'s outputs.
void requireBitIdentical(const VtcSession& session, const ExecPlan& plan, const std::map<std::string, Tensor>& inputs,
                         const ExecutionResult& reference);
// The same on inputs drawn from `seed`, with the reference run here.
void requireBitIdentical(const VtcSession& session, const ExecPlan& plan, uint64_t seed);

} // namespace tcx::test
