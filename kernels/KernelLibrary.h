#pragma once
// The kernel library's headers (include/tcx/*.cuh, *.h) compiled into tcx,
// so that NVRTC sees the same headers in place and an export carries them,
// without reading the source tree at run time. The build generates the
// definition (EmbedHeaders.cmake).

#include <span>

namespace tcx {

struct KernelHeader {
  const char* name; // "tcx/types.cuh", as kernels include it
  const char* source;
};

std::span<const KernelHeader> kernelLibraryHeaders();

} // namespace tcx
