#pragma once
// The GPU that measurements run on, queried once per process. A machine
// without a device (or without a driver) is an ordinary state, not a
// failure: tcx runs in estimated mode there, and `available` says why not.

#include "codegen/CudaCodegen.h"

#include <cstdint>
#include <string>

namespace tcx::gpu {

struct GpuInfo {
  bool available = false;
  std::string reason; // why no device is available; empty when one is
  std::string name;   // "NVIDIA H100 80GB HBM3"
  int ccMajor = 0;
  int ccMinor = 0;
  int smCount = 0;
  int threadsPerSm = 0; // resident threads a multiprocessor holds
  int64_t memoryBytes = 0;
  int64_t l2Bytes = 0;
  int64_t sharedPerBlockOptin = 0; // dynamic shared memory a block may opt in to
  int driverVersion = 0;           // 13000 for CUDA 13.0
  int runtimeVersion = 0;
  int smClockKHz = 0;
  int memClockKHz = 0;
  int memBusWidth = 0; // bits

  // The NVRTC architecture of the device: "sm_90a" on a 9.0 device (the
  // kernel library's wgmma path needs Hopper's arch-specific features; such a
  // cubin runs on 9.0 devices only, as every cubin here is built for the
  // device it runs on), else "sm_XY".
  std::string arch() const;
  // Whether launches can be programmatic dependent ones (Hopper on:
  // CudaModule.h's LaunchOrder::Dependent); older devices launch serially.
  bool dependentLaunch() const { return ccMajor >= 9; }
  // What codegen plans for on this device; without one, codegen's default
  // (an H100 or H200).
  CodegenTarget codegenTarget() const;
  // One line naming the device, its clocks, driver and runtime, for the
  // header of every measurement; "no CUDA device (<reason>)" without one.
  std::string describe() const;
};

// Device 0, queried on first use (thread-safe); never raises or exits.
const GpuInfo& gpuInfo();

// Raises Unsupported, with the reason, when no device is available.
void requireGpu();

} // namespace tcx::gpu
