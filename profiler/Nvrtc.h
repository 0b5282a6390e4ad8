#pragma once
// CUDA C++ source to cubin with NVRTC, at run time and without a GPU when
// the architecture is explicit. The kernel library's headers come from the
// tcx binary itself (kernels/KernelLibrary.h) and the toolkit's (cuda_bf16.h, ...)
// from its include directory, so generated code compiles the same in place
// and in an exported binary. Results are cached (CompileCache.h).

#include "profiler/CompileCache.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcx::gpu {

struct CompileOptions {
  // The target, "sm_90" or "sm_90a"; empty means the device's own, which
  // needs a device.
  std::string arch;
  // Appended to tcx's own options ("-lineinfo", "-DTILE=64").
  std::vector<std::string> extraOptions;
  // The file name NVRTC's messages use.
  std::string programName = "tcx_kernel.cu";
};

struct CompileResult {
  Cubin cubin;
  std::string arch;
  std::string log;       // NVRTC's warnings; empty on a cache hit
  CacheHit cache = CacheHit::Miss;
  double compileMs = 0;  // wall time of the call, cache lookup included
  uint64_t key = 0;      // the cache key
};

class NvrtcCompiler {
public:
  // Caches on disk under CompileCache::defaultDir().
  NvrtcCompiler();
  // Caches under `cacheDir` ("" for memory only).
  explicit NvrtcCompiler(std::string cacheDir);

  // Raises Internal with NVRTC's log and the offending source lines when the
  // source does not compile, InvalidArgument when no architecture is given
  // and there is no device to take it from.
  CompileResult compile(const std::string& source, const CompileOptions& options = {});

  // Every option NVRTC receives for `arch`: tcx's own, then the extra ones.
  static std::vector<std::string> nvrtcOptions(const std::string& arch, const CompileOptions& options);
  // NVRTC's version, "13.0".
  static std::string version();
  // Where cuda_fp16.h and cuda_bf16.h are read from: $TCX_CUDA_INCLUDE, else
  // the toolkit's include directory at configure time if it exists, else
  // /usr/local/cuda/include.
  static std::string cudaIncludeDir();

  const CompileCache& cache() const { return cache_; }

private:
  CompileCache cache_;
};

} // namespace tcx::gpu
