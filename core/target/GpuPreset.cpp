#include "target/GpuPreset.h"

namespace tcx {

const std::vector<GpuPreset>& gpuPresets() {
  // Peaks from NVIDIA's datasheets; efficiencies are what streaming copies
  // and large GEMMs reach (a device-to-device copy reaches ~90% of HBM peak
  // on Hopper; cuBLAS about 70-80% of dense tensor peak).
  static const std::vector<GpuPreset> presets = {
      {"h100-sxm", "NVIDIA H100 SXM5 80GB", 132, 3.35e12, 0.90, 50e6, 989e12, 494e12, 67e12, 0.75, 3.0e-6, 32,
       227 * 1024, 255, 1.98e9, 2048},
      {"h100-pcie", "NVIDIA H100 PCIe 80GB", 114, 2.0e12, 0.90, 50e6, 756e12, 378e12, 51e12, 0.75, 3.0e-6, 32,
       227 * 1024, 255, 1.755e9, 2048},
      {"h200", "NVIDIA H200 SXM 141GB", 132, 4.8e12, 0.88, 60e6, 989e12, 494e12, 67e12, 0.75, 3.0e-6, 32,
       227 * 1024, 255, 1.98e9, 2048},
      {"a100", "NVIDIA A100 SXM4 80GB", 108, 2.039e12, 0.90, 40e6, 312e12, 156e12, 19.5e12, 0.75, 3.5e-6, 32,
       163 * 1024, 255, 1.41e9, 2048},
  };
  return presets;
}

std::optional<GpuPreset> findGpuPreset(std::string_view name) {
  for (const GpuPreset& p : gpuPresets())
    if (p.name == name) return p;
  return std::nullopt;
}

const GpuPreset& defaultGpuPreset() { return gpuPresets().front(); }

} // namespace tcx
