#pragma once
// A roofline estimate of each plan kernel on a GPU preset: bytes moved
// (with a penalty for short contiguous runs, since DRAM moves 32-byte
// sectors) against bandwidth, flops against the unit that does them, plus a
// launch overhead. Every number it gives is "estimated". The FLOPs are the
// op registry's (OpDef::flops): contractions on tensor cores, the rest on
// CUDA cores.

#include "target/GpuPreset.h"
#include "plan/ExecPlan.h"

namespace tcx {

struct KernelEstimate {
  double seconds = 0;
  double bytes = 0; // effective DRAM bytes (reads and writes)
  double flops = 0;
  bool memoryBound = true;
};

class CostModel {
public:
  explicit CostModel(GpuPreset preset) : preset_(std::move(preset)) {}

  const GpuPreset& preset() const { return preset_; }
  KernelEstimate estimate(const PlanKernel& kernel) const;
  // "estimated (h100-sxm)"
  std::string sourceLabel() const { return "estimated (" + preset_.name + ")"; }

private:
  double accessBytes(const TensorAccess& access) const;
  double flopSeconds(const PlanKernel& kernel, double* flops) const;

  GpuPreset preset_;
};

} // namespace tcx
