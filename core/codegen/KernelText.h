#pragma once
// What the kernels ModuleBuilder generates share: their block size, the
// grid they launch at most, and the statements that split a linear index
// into a tensor's index variables.

#include "ir/Shape.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcx {

// The threads of a generated kernel's block.
inline constexpr unsigned kKernelThreads = 256;
// Enough blocks to fill any current GPU many times over; the kernels'
// grid-stride loops cover the rest.
inline constexpr int64_t kMaxGridBlocks = 1 << 20;
// The elements a thread of an element-wise kernel (ModuleBuilder's
// addValueKernel) or a vendor call's epilogue kernel (VendorLowering.cpp)
// takes at a time, their loads in flight together
// (kernels/include/tcx/epilogue.cuh): kElementsPerThread where `count`
// fills every multiprocessor's threads (`smCount` of `threadsPerSm`) that
// many times over, else one. With one, a big tensor's loads in flight were
// too few to cover the memory's latency (ResNeXt-50's vendor epilogues at
// 32 images moved 1.7-2.4 TB/s of the H200's 4.2); with four, a small
// one's element kernels lost the threads they need (Llama-3 decode's
// attention stages, a dot product an element, took 12 % longer end to end).
inline constexpr unsigned kElementsPerThread = 4;
inline unsigned elementsPerThread(int64_t count, int smCount, int threadsPerSm) {
  return count >= int64_t{kElementsPerThread} * smCount * threadsPerSm ? kElementsPerThread : 1;
}

// A generated kernel's opening: its signature, taking the plan's Buffers,
// and the wait for the kernel before it on the stream that every plan
// kernel begins with, since the profiler launches each one as the one before
// it ends (kernels/include/tcx/grid_dependency.cuh). `bounds` is the
// __launch_bounds__ argument list.
std::string kernelOpening(std::string_view bounds, std::string_view name);

// Statements that split the linear index `i` (a tcx::i64) into `names`, one
// per dimension of `shape`, row-major.
std::string decomposeIndex(const Shape& shape, const std::vector<std::string>& names);

} // namespace tcx
