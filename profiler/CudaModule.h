#pragma once
// A cubin loaded into the process with cudaLibraryLoadData (the runtime's
// context-independent loading, so no driver-API call is needed), its kernels
// looked up by name and launched with cudaLaunchKernelExC.

#include <cuda_runtime_api.h>

#include <map>
#include <string>

namespace tcx::gpu {

// How a launch orders against the kernel before it on its stream.
enum class LaunchOrder {
  // Starts once the previous kernel has completed: plain stream order.
  Serial,
  // Programmatic dependent launch (Hopper): launched once every block of the
  // previous kernel has exited (or earlier, if that kernel lets it), before
  // the previous kernel completes, so the kernel must await it before it
  // reads anything that kernel writes, as every generated plan kernel does
  // (kernels/include/tcx/grid_dependency.cuh). Serial on older devices.
  Dependent,
};

class CudaModule {
public:
  // Loads `cubin` (keeps its own copy). Enables CUPTI's kernel activity
  // first (KernelActivity.h), since CUPTI only instruments modules loaded
  // after it is enabled. Raises Unsupported without a device.
  explicit CudaModule(std::string cubin);
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  CudaModule(CudaModule&& other) noexcept;
  CudaModule& operator=(CudaModule&& other) noexcept;

  // The kernel named `name` (as the cubin spells it: extern "C" names are
  // plain, others mangled). Raises InvalidArgument naming the symbol when
  // the cubin has none.
  cudaKernel_t kernel(const std::string& name);

  // Launches `kernel` (from this module) on `stream`; `args` points at each
  // argument. Dynamic shared memory above the default 48 KiB is opted in to
  // first. Notifies the thread's LaunchObserver around the launch.
  void launch(cudaKernel_t kernel, dim3 grid, dim3 block, size_t sharedBytes, void** args,
              cudaStream_t stream = nullptr, LaunchOrder order = LaunchOrder::Serial);

private:
  struct KernelEntry {
    std::string name;
    size_t sharedOptIn = 0; // the dynamic shared memory the kernel is opted in to
  };

  std::string cubin_;
  cudaLibrary_t library_ = nullptr;
  std::map<cudaKernel_t, KernelEntry> kernels_;
};

} // namespace tcx::gpu
