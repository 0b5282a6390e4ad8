#pragma once
// GPU descriptions for the cost model. The numbers are vendor datasheet
// peaks (dense tensor-core rates, HBM bandwidth) with the fraction of each
// that well-written kernels reach in practice; latencies from the cost
// model are labelled "estimated" with the preset's name.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcx {

struct GpuPreset {
  std::string name;          // "h100-sxm"
  std::string description;   // "NVIDIA H100 SXM5 80GB"
  int smCount;
  double hbmBytesPerSecond;  // peak DRAM bandwidth
  double bandwidthEfficiency; // achievable fraction of it for streaming kernels
  double l2Bytes;
  double tensorFlops16;      // dense f16/bf16 tensor-core FLOP/s
  double tensorFlopsTf32;    // dense tf32 tensor-core FLOP/s
  double simtFlops32;        // plain f32 FMA FLOP/s
  double computeEfficiency;  // achievable fraction of tensor-core peak
  double launchSeconds;      // per-kernel launch and tail overhead
  int sectorBytes;           // DRAM access granularity (32-byte sectors)
  int sharedMemoryPerBlock;  // bytes a thread block may opt in to (μGraph block-graph budget)
  int registersPerThread;    // 32-bit registers a thread may use (μGraph thread-graph budget)
  double smClockHz;          // SM boost clock
  int maxThreadsPerSm;       // resident threads an SM holds
};

const std::vector<GpuPreset>& gpuPresets();
// nullopt if no preset has that name.
std::optional<GpuPreset> findGpuPreset(std::string_view name);
const GpuPreset& defaultGpuPreset(); // h100-sxm

} // namespace tcx
