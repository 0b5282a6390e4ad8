#pragma once
// A TensorAccess as pointer + strides: what library kernels (and cuBLAS-like
// calls) take. It exists when the access's mapping function is a single
// unconstrained piece over one buffer whose offset is affine in the index
// (VTC Remark 1 with b(I) = 0), or affine once one dimension is divided by a
// group size: the GQA/MQA case, where query head h reads KV head h / G. (A
// concatenation stored in place, read whole, is one such piece:
// MappingFunction::remapSources merges its parts'.)

#include "plan/ExecPlan.h"

#include <optional>
#include <vector>

namespace tcx {

struct StridedView {
  int buffer = -1;
  int64_t offset = 0;           // elements, from the buffer's start
  std::vector<int64_t> strides; // elements, per dimension of the value
  // With grouping: dimension groupedDim contributes (x / group) * its stride.
  int groupedDim = -1;
  int64_t group = 1;
};

// nullopt unless the access is strided as described above. With
// groupedDim >= 0, that dimension may (and, if group > 1, must) enter the
// offset as floor(x / group).
std::optional<StridedView> stridedView(const TensorAccess& access, int groupedDim = -1, int64_t group = 1);
// The same of a mapping function alone, before buffers exist (layout
// choice); `buffer` is then the mapping's source.
std::optional<StridedView> stridedView(const MappingFunction& mapping, int groupedDim = -1, int64_t group = 1);

// A dense row-major buffer of `shape` (a scratch buffer a stage writes).
StridedView rowMajorView(int buffer, const Shape& shape);
// Whether `view`'s strides are those of a dense row-major tensor of `shape`
// (size-1 dimensions' strides ignored), wherever it starts: what cuDNN wants
// of filters, and what tells a whole tensor from a slice of a larger one's
// channels.
bool hasPackedStrides(const StridedView& view, const Shape& shape);

// Whether the access is a strided view, plainly or with one dimension grouped
// by a divisor its offset shows (x_d / g): what the library kernels need of
// an operand, as the cost model asks it before codegen does.
bool hasStridedView(const TensorAccess& access);

} // namespace tcx
