#pragma once
// Moving elements through mapping functions on the CPU: what VTC's
// overloaded tl.load / tl.store do on the GPU. Buffers are byte tensors
// indexed by a TensorAccess's buffer ids.

#include "plan/ExecPlan.h"

#include <vector>

namespace tcx {

// Reads the logical tensor `access` describes into `out` (contiguous, of
// the value's type).
void gatherAccess(const TensorAccess& access, const std::vector<Tensor>& buffers, Tensor& out);
// Writes the contiguous tensor `in` through `access`.
void scatterAccess(const TensorAccess& access, std::vector<Tensor>& buffers, const Tensor& in);
// Copies, for every index on which a piece of `from` holds, that element
// (or fill value) into the same index of `to`: a residual data-movement
// kernel.
void copyRegion(const TensorAccess& from, const TensorAccess& to, std::vector<Tensor>& buffers);

} // namespace tcx
