#pragma once
// The executable plan: kernels in order, each reading and writing its
// tensors through TensorAccesses (a mapping function onto physical buffers:
// a plain identity for a physical tensor, anything VTC composed for a
// virtual one), the data-movement kernels that remain (copying only what no
// virtual tensor already placed), and the buffer plan.

#include "fusion/KernelGraph.h"
#include "index/MappingFunction.h"
#include "plan/Layout.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {

struct PlanBuffer {
  enum class Kind { Input, Output, Constant, Intermediate };
  int id = 0;
  std::string name;
  const Value* tensor = nullptr; // the physical tensor stored here
  Kind kind = Kind::Intermediate;
  DType dtype = DType::F32;
  int64_t bytes = 0;
  int aliasOf = -1;    // an in-place result stored in another buffer (a donated input's)
  int firstKernel = -1; // liveness, in kernel order
  int lastKernel = -1;
  int64_t arenaOffset = -1; // intermediates only
  Layout layout;            // how `tensor` is stored (plan/LayoutChoice.h)
};
const char* bufferKindName(PlanBuffer::Kind kind);

struct TensorAccess {
  const Value* value = nullptr;
  MappingFunction mapping;  // value indices -> buffers
  std::vector<int> buffers; // buffer id of each mapping source
  bool isVirtual() const;   // anything but an identity onto the value's own buffer
};

struct PlanKernel {
  // How the kernel works: it runs its fused nodes (compute kernels, and
  // data-movement ops without mapping semantics), or it copies the regions
  // of its outputs that a data-movement op still owns.
  enum class Kind { RunNodes, CopyRegions };
  int id = 0;
  std::string name;
  Kind kind = Kind::RunNodes;
  const FusedKernel* fused = nullptr;
  std::vector<TensorAccess> inputs;  // compute kernels: one per fused input
  std::vector<TensorAccess> outputs; // one per written output
  // CopyRegions kernels, parallel to outputs: the region of each output
  // still to be written and where it comes from (buffers, or fill values).
  std::vector<TensorAccess> copyFrom;

  // A kernel of a data-movement op (VTC's latency breakdown category).
  bool isDataMovement() const { return fused->isDataMovement(); }
};

struct ExecPlan {
  const KernelGraph* kernelGraph = nullptr;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanKernel> kernels;
  std::vector<const Node*> eliminated; // data-movement ops with no kernel left
  // Every physical tensor's buffer (in-place results share their input's).
  std::unordered_map<const Value*, int> tensorBuffers;
  int64_t arenaBytes = 0;    // peak of the intermediates' arena
  int64_t externalBytes = 0; // inputs, outputs (not aliased) and constant buffers

  int64_t peakMemoryBytes() const { return arenaBytes + externalBytes; }
  size_t numDataMovementKernels() const;
  // The buffer that stores `tensor`, or -1 if it is virtual or kernel-internal.
  int bufferOf(const Value* tensor) const;
};

} // namespace tcx
