#include "ElementFormPlan.h"

#include "support/Error.h"

namespace tcx::test {

ExecPlan withElementForms(const ExecPlan& plan) {
  ExecPlan result = plan;
  for (PlanKernel& k : result.kernels) {
    if (k.kind != PlanKernel::Kind::CopyRegions) continue;
    k.kind = PlanKernel::Kind::RunNodes;
    k.copyFrom.clear();
    for (const Value* v : k.fused->inputs) {
      const int buffer = plan.bufferOf(v);
      // Index operands of the copies have no buffer: code generation embeds them.
      if (buffer < 0 && v->isConstant()) continue;
      TCX_CHECK(buffer >= 0, ErrorKind::Internal, "input '{}' of kernel '{}' has no buffer", v->name(), k.name);
      TensorAccess access;
      access.value = v;
      access.mapping = MappingFunction::identity(v->type().shape);
      access.buffers = {buffer};
      k.inputs.push_back(std::move(access));
    }
  }
  return result;
}

} // namespace tcx::test
