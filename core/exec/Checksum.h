#pragma once
// Checksums of tensors, printed by `tcx run` so that two runs (or tcx and
// another runtime) can be compared at a glance: the sum and mean absolute
// value tolerate rounding differences, the hash is bit-exact.

#include "ir/Tensor.h"

#include <cstdint>

namespace tcx {

struct TensorChecksum {
  double sum = 0;
  double meanAbs = 0;
  uint64_t nanCount = 0;
  uint64_t fnv1a = 0; // of the raw bytes
};

TensorChecksum checksum(const Tensor& tensor);

} // namespace tcx
