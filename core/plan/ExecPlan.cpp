#include "plan/ExecPlan.h"

#include <algorithm>

namespace tcx {

const char* bufferKindName(PlanBuffer::Kind kind) {
  switch (kind) {
  case PlanBuffer::Kind::Input: return "input";
  case PlanBuffer::Kind::Output: return "output";
  case PlanBuffer::Kind::Constant: return "constant";
  case PlanBuffer::Kind::Intermediate: return "intermediate";
  }
  return "?";
}

bool TensorAccess::isVirtual() const {
  return !(buffers.size() == 1 && mapping.isIdentity());
}

size_t ExecPlan::numDataMovementKernels() const {
  return static_cast<size_t>(std::count_if(kernels.begin(), kernels.end(), [](const PlanKernel& k) { return k.isDataMovement(); }));
}

int ExecPlan::bufferOf(const Value* tensor) const {
  auto it = tensorBuffers.find(tensor);
  return it == tensorBuffers.end() ? -1 : it->second;
}

} // namespace tcx
