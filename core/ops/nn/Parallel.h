#pragma once
// A minimal parallel-for over std::thread for the compute-bound kernels of
// the nn family (GEMM, convolution, pooling). Threads are started per call:
// the kernels that use it run for milliseconds at least, so a pool would save
// little and would outlive the ops that need it.

#include <cstdint>
#include <functional>

namespace tcx::nn {

// The number of threads parallelFor uses at most.
int64_t maxThreads();

// Calls body(begin, end) on disjoint contiguous ranges that together cover
// [0, n), one per thread. `costPerItem` (in multiply-adds or comparable units)
// decides how many threads are worth starting. Calls nested inside a body run
// on the calling thread. An exception thrown by a body is rethrown here.
void parallelFor(int64_t n, double costPerItem, const std::function<void(int64_t, int64_t)>& body);

} // namespace tcx::nn
