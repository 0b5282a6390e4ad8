#include "profiler/GpuDevice.h"

#include "support/Error.h"

#include <cuda_runtime_api.h>

#include <fmt/format.h>

namespace tcx::gpu {
namespace {

std::string versionString(int version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

// Attributes that fail to read stay 0: a description with one unknown clock
// is still worth more than none.
int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  return cudaDeviceGetAttribute(&value, attr, device) == cudaSuccess ? value : 0;
}

GpuInfo queryGpu() {
  GpuInfo info;
  // The driver version reads 0 without a driver; the runtime's own never fails.
  cudaDriverGetVersion(&info.driverVersion);
  cudaRuntimeGetVersion(&info.runtimeVersion);
  int count = 0;
  if (cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    info.reason = cudaGetErrorString(status);
    return info;
  }
  if (count == 0) {
    info.reason = "the driver reports no device";
    return info;
  }
  cudaDeviceProp props{};
  if (cudaError_t status = cudaGetDeviceProperties(&props, 0); status != cudaSuccess) {
    info.reason = cudaGetErrorString(status);
    return info;
  }
  info.available = true;
  info.name = props.name;
  info.ccMajor = props.major;
  info.ccMinor = props.minor;
  info.smCount = props.multiProcessorCount;
  info.threadsPerSm = props.maxThreadsPerMultiProcessor;
  info.memoryBytes = static_cast<int64_t>(props.totalGlobalMem);
  info.l2Bytes = props.l2CacheSize;
  info.sharedPerBlockOptin = static_cast<int64_t>(props.sharedMemPerBlockOptin);
  // CUDA 13 dropped the clock fields from cudaDeviceProp; attributes remain.
  info.smClockKHz = attribute(cudaDevAttrClockRate, 0);
  info.memClockKHz = attribute(cudaDevAttrMemoryClockRate, 0);
  info.memBusWidth = attribute(cudaDevAttrGlobalMemoryBusWidth, 0);
  return info;
}

} // namespace

// 9.0 compiles for sm_90a: its arch-specific features (wgmma) run on 9.0 devices only, and every
// cubin here is built for the device it runs on.
std::string GpuInfo::arch() const {
  return fmt::format("sm_{}{}{}", ccMajor, ccMinor, ccMajor == 9 && ccMinor == 0 ? "a" : "");
}

CodegenTarget GpuInfo::codegenTarget() const {
  if (!available) return {};
  return codegenTargetFor(arch(), smCount, threadsPerSm);
}

std::string GpuInfo::describe() const {
  if (!available) return fmt::format("no CUDA device ({})", reason);
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  return fmt::format("{} ({}, {} SMs, {:.1f} GiB, L2 {} MiB, SM clock {} MHz, memory clock {} MHz, "
                     "{}-bit bus, driver {}, runtime {})",
                     name, arch(), smCount, static_cast<double>(memoryBytes) / kGiB,
                     l2Bytes / (1024 * 1024), smClockKHz / 1000, memClockKHz / 1000, memBusWidth,
                     versionString(driverVersion), versionString(runtimeVersion));
}

const GpuInfo& gpuInfo() {
  static const GpuInfo info = queryGpu();
  return info;
}

void requireGpu() {
  const GpuInfo& info = gpuInfo();
  if (!info.available)
    raise(ErrorKind::Unsupported, "no CUDA device: {}; running in estimated mode needs no GPU", info.reason);
}

} // namespace tcx::gpu
