#include "profiler/CudaModule.h"

#include "profiler/CudaError.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelActivity.h"
#include "profiler/LaunchObserver.h"
#include "support/Error.h"

#include <utility>

namespace tcx::gpu {

CudaModule::CudaModule(std::string cubin) : cubin_(std::move(cubin)) {
  requireGpu();
  KernelActivity::instance();
  checkCuda(cudaLibraryLoadData(&library_, cubin_.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
            "cudaLibraryLoadData");
}

CudaModule::~CudaModule() {
  if (library_) cudaLibraryUnload(library_);
}

CudaModule::CudaModule(CudaModule&& other) noexcept
    : cubin_(std::move(other.cubin_)), library_(std::exchange(other.library_, nullptr)),
      kernels_(std::move(other.kernels_)) {}

CudaModule& CudaModule::operator=(CudaModule&& other) noexcept {
  if (this != &other) {
    if (library_) cudaLibraryUnload(library_);
    cubin_ = std::move(other.cubin_);
    library_ = std::exchange(other.library_, nullptr);
    kernels_ = std::move(other.kernels_);
  }
  return *this;
}

cudaKernel_t CudaModule::kernel(const std::string& name) {
  cudaKernel_t kernel = nullptr;
  if (cudaError_t status = cudaLibraryGetKernel(&kernel, library_, name.c_str()); status != cudaSuccess) {
    // A failed lookup is not sticky, but leave no error for the next check.
    cudaGetLastError();
    raise(ErrorKind::InvalidArgument, "the module has no kernel '{}' ({})", name, cudaGetErrorString(status));
  }
  kernels_.try_emplace(kernel, KernelEntry{name});
  return kernel;
}

void CudaModule::launch(cudaKernel_t kernel, dim3 grid, dim3 block, size_t sharedBytes, void** args,
                        cudaStream_t stream, LaunchOrder order) {
  auto it = kernels_.find(kernel);
  TCX_CHECK(it != kernels_.end(), ErrorKind::Internal, "launch of a kernel that this module did not look up");
  KernelEntry& entry = it->second;
  // The 48 KiB default limit is on static plus dynamic shared memory, and the static part (split_k.cuh's
  // flag, say) is the kernel's own: opt in to any dynamic amount, once per kernel and size; it is
  // harmless below the limit. 48 KiB of dynamic memory plus one static byte failed to launch.
  if (sharedBytes > entry.sharedOptIn) {
    int device = 0;
    checkCuda(cudaGetDevice(&device), "cudaGetDevice");
    checkCuda(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(sharedBytes), device),
              "cudaKernelSetAttributeForDevice(" + entry.name + ", max dynamic shared memory)");
    entry.sharedOptIn = sharedBytes;
  }
  LaunchObserver* observer = LaunchObserver::current();
  if (observer) observer->beforeLaunch(entry.name, stream);
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = sharedBytes;
  config.stream = stream;
  config.attrs = &dependent;
  config.numAttrs = order == LaunchOrder::Dependent && gpuInfo().dependentLaunch() ? 1 : 0;
  // The runtime documents cudaKernel_t as castable to the function pointer
  // that cudaLaunchKernel takes.
  checkCuda(cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), args),
            "cudaLaunchKernelExC(" + entry.name + ")");
  if (observer) observer->afterLaunch(entry.name, stream);
}

} // namespace tcx::gpu
