#pragma once
// Template arguments picked at run time from a plan: the bench instantiates the kernel bodies the
// way codegen does, once per combination it runs.

#include "BenchUtil.cuh"
#include "tcx/launch.h"

#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace bench {

template <tcx::Access A> using AccessC = std::integral_constant<tcx::Access, A>;

template <typename F> void withAccess(tcx::Access a, F&& f) {
  switch (a) {
  case tcx::Access::ColContiguous:
    return f(AccessC<tcx::Access::ColContiguous>{});
  case tcx::Access::RowContiguous:
    return f(AccessC<tcx::Access::RowContiguous>{});
  case tcx::Access::Strided:
    return f(AccessC<tcx::Access::Strided>{});
  }
}

// Calls f(std::integral_constant<int, V>) for the V in Vs equal to `value`.
template <int... Vs, typename F> void withInt(int value, F&& f) {
  const bool found = ((value == Vs ? (f(std::integral_constant<int, Vs>{}), true) : false) || ...);
  if (!found) {
    std::fprintf(stderr, "bench: template argument %d not instantiated\n", value);
    std::exit(1);
  }
}

// Launches `kernel` as the plan says, raising its dynamic shared-memory limit first as launch.h
// asks codegen to.
template <typename Kernel, typename... Args>
void launch(Kernel kernel, const tcx::LaunchConfig& c, Args... args) {
  if (c.sharedBytes > 0)
    BENCH_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, c.sharedBytes));
  kernel<<<dim3(c.grid[0], c.grid[1], c.grid[2]), dim3(c.block[0], c.block[1], c.block[2]), c.sharedBytes>>>(args...);
  BENCH_CHECK(cudaGetLastError());
}

} // namespace bench
