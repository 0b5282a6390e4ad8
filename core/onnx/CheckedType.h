#pragma once
// Types read from a file are checked before anything uses them: no negative
// dimension, and a byte size that fits in int64, so that no size computation
// downstream (allocation, folding limits, inference) overflows.

#include "ir/TensorType.h"

namespace tcx {

// `dtype` and `shape` as a TensorType; raises InvalidModel if invalid.
TensorType checkedTensorType(DType dtype, Shape shape);

} // namespace tcx
