#include "support/PlanCheck.h"

#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"

#include <catch2/catch.hpp>

namespace tcx::test {

void requireBitIdentical(const VtcSession& session, const ExecPlan& plan, const std::map<std::string, Tensor>& inputs,
                         const ExecutionResult& reference) {
  std::vector<Tensor> got = runPlan(plan, inputs);
  REQUIRE(got.size() == reference.outputs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << session.graph().outputs()[i]->name());
    REQUIRE(got[i].identicalTo(reference.outputs[i]));
  }
}

void requireBitIdentical(const VtcSession& session, const ExecPlan& plan, uint64_t seed) {
  auto inputs = randomInputs(session.graph(), seed);
  requireBitIdentical(session, plan, inputs, ReferenceExecutor(session.graph()).run(inputs));
}

} // namespace tcx::test
