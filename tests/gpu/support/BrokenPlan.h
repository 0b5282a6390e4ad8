#pragma once
// A one-kernel plan whose generated code is changed on purpose, for the
// tests of how GPU failures are reported (GpuErrorTest, GpuFaultTest).

#include "codegen/GeneratedPlan.h"
#include "pipeline/VtcSession.h"

#include <memory>
#include <string>

namespace tcx::test {

// x -> Relu 'the_relu' -> Exp 'the_exp' over `shape`, the session laid out.
std::unique_ptr<VtcSession> reluExpSession(const std::vector<int64_t>& shape);

// The plan's code with `statement` inserted at the top of its first
// kernel's body, on the same line, so the line numbers (and the kernels'
// source spans) stay as they were.
GeneratedPlan withStatementInFirstKernel(const ExecPlan& plan, const std::string& statement);

} // namespace tcx::test
