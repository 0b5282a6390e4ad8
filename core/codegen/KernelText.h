#pragma once
// What the kernels ModuleBuilder generates share: their block size, the
// grid they launch at most, and the statements that split a linear index
// into a tensor's index variables.

#include "ir/Shape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcx {

// The threads of a generated kernel's block.
inline constexpr unsigned kKernelThreads = 256;
// Enough blocks to fill any current GPU many times over; the kernels'
// grid-stride loops cover the rest.
inline constexpr int64_t kMaxGridBlocks = 1 << 20;

// Statements that split the linear index `i` (a tcx::i64) into `names`, one
// per dimension of `shape`, row-major.
std::string decomposeIndex(const Shape& shape, const std::vector<std::string>& names);

} // namespace tcx
