#pragma once
// An ExecPlan on the GPU: its generated module compiled and loaded, every
// buffer allocated as the plan laid it out (inputs, outputs and constants
// apart; intermediates in one arena at their planned offsets; in-place
// results in their donor's buffer), and the launches in plan order.
//
// Outputs and intermediates are poisoned (all bits set: NaN for floats)
// before each checked run, so an element no kernel writes shows up.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"
#include "profiler/DeviceBuffer.h"
#include "profiler/KernelTimer.h"
#include "profiler/Nvrtc.h"
#include "profiler/PlanModules.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcx::gpu {


class GpuPlan {
public:
  // Compiles `code` (for the device's architecture) and allocates the
  // buffers. Raises Unsupported without a device, Device when the buffers
  // do not fit in the free device memory, and Internal naming the plan
  // kernel when NVRTC rejects its generated code.
  GpuPlan(const ExecPlan& plan, GeneratedPlan code, NvrtcCompiler& compiler);
  ~GpuPlan();

  // Uploads the graph inputs (by name) and the plan's constants.
  void setInputs(const std::map<std::string, Tensor>& inputs);
  // Fills outputs and intermediates with all-ones bytes.
  void poison();
  // Enqueues one run on `stream`.
  void enqueue(cudaStream_t stream);
  // Runs once, synchronising after every launch, and returns the graph
  // outputs in the graph's order. Raises Device naming the plan kernel, its
  // nodes and ops if a kernel faults.
  std::vector<Tensor> run();
  // Times repeated runs: one entry per launch (GeneratedPlan::launches).
  TimingResult time(const TimerOptions& options);

  const GeneratedPlan& code() const { return code_; }
  const PlanCompile& compiled() const { return modules_->compiled(); }

private:
  void launch(size_t i, cudaStream_t stream);

  const ExecPlan& plan_;
  GeneratedPlan code_;
  std::unique_ptr<PlanModules> modules_;
  std::vector<DeviceBuffer> owned_;
  std::vector<void*> addresses_; // per buffer (GeneratedPlan numbering)
  // Each launch's argument: GeneratedPlan::bufferSlots addresses, what its
  // launch binds (GeneratedLaunch::buffers).
  std::vector<void*> arguments_;
};

} // namespace tcx::gpu
