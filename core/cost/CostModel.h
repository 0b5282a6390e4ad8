#pragma once
// A roofline estimate of each plan kernel on a GPU preset: bytes moved
// (with a penalty for short contiguous runs, since DRAM moves 32-byte
// sectors) against bandwidth, flops against the unit that does them, plus a
// launch overhead. Every number it gives is "estimated".

#include "cost/GpuPreset.h"
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
  double planSeconds(const ExecPlan& plan) const;
  // "estimated (h100-sxm)"
  std::string sourceLabel() const { return "estimated (" + preset_.name + ")"; }

private:
  double accessBytes(const TensorAccess& access) const;
  double flopSeconds(const PlanKernel& kernel, double* flops) const;

  GpuPreset preset_;
};

} // namespace tcx
