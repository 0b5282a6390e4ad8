#pragma once
// An ExecPlan on the GPU: its generated module compiled and loaded, every
// buffer allocated as the plan laid it out (inputs, outputs and constants
// apart; intermediates in one arena at their planned offsets; in-place
// results in their donor's buffer), and the launches in plan order.
//
// Plan kernels with a vendor alternative (codegen/VendorCall.h) run their
// generated code until chooseVendorCalls picks the library call for some.
//
// Outputs and intermediates are poisoned (all bits set: NaN for floats)
// before each checked run, so an element no kernel writes shows up.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"
#include "profiler/DeviceBuffer.h"
#include "profiler/KernelTimer.h"
#include "profiler/Nvrtc.h"
#include "profiler/PlanModules.h"
#include "profiler/VendorCalls.h"
#include "profiler/VendorSelection.h"

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
  // Picks, for every plan kernel with a vendor alternative, the form that
  // runs from now on (VendorSelection.h). Measuring runs the plan once in
  // order, timing each such kernel's forms on the values it reads there;
  // that leaves intermediates, outputs and in-place inputs changed, so set
  // the inputs again before a run whose results count. A vendor call the
  // library refuses keeps the generated code (Always raises instead).
  void chooseVendorCalls(VendorPolicy policy);
  // How many plan kernels run a vendor call.
  size_t vendorCallsChosen() const;
  // What choosing timed for plan kernel `planKernel`'s two forms, measured
  // or read from the cache; none where it has no vendor alternative, the
  // library refused the call, or the policy did not measure.
  std::optional<VendorChoice> vendorChoice(int planKernel) const;
  // Device bytes the plan's scratch takes as allocated: the generated
  // code's, and the vendor calls' staging and workspace if any was chosen.
  int64_t scratchBytes() const;

  // How enqueue orders each launch after the first against the one before
  // it: Dependent (the default: programmatic dependent launch on Hopper,
  // CudaModule.h, launched as the one before it ends), or Serial, to measure
  // what that gains. run() and choosing vendor calls launch serially either
  // way.
  void setLaunchOrder(LaunchOrder order) { order_ = order; }
  // Enqueues one run on `stream`.
  void enqueue(cudaStream_t stream);
  // Runs once, synchronising after every launch, and returns the graph
  // outputs in the graph's order. Raises Device naming the plan kernel, its
  // nodes and ops if a kernel faults.
  std::vector<Tensor> run();
  // Runs once as enqueue() launches (as timed), on a stream of its own, and
  // returns the outputs as run() does; a fault here is not named by kernel.
  std::vector<Tensor> runEnqueued();
  // Times repeated runs: one entry per launch (GeneratedPlan::launches).
  TimingResult time(const TimerOptions& options);

  // The plan kernel and form of each kernel a timing lists (in launch
  // order, by name: a vendor call may launch several library kernels).
  struct KernelOwner {
    int planKernel = 0;
    std::string what;
  };
  std::vector<KernelOwner> owners(const std::vector<LaunchTiming>& timed) const;

  const GeneratedPlan& code() const { return code_; }
  const PlanCompile& compiled() const { return modules_->compiled(); }

private:
  // One step of a run: launch `launch` of the generated plan, or, with
  // `alternative` >= 0, that vendor alternative in place of its plan kernel.
  struct Step {
    size_t launch = 0;
    int alternative = -1;
  };

  // Each launch's argument, as its bindings (GeneratedLaunch::buffers) say.
  std::vector<void*> bindArguments(const std::vector<GeneratedLaunch>& launches) const;
  void launch(size_t i, cudaStream_t stream, LaunchOrder order);
  void runStep(const Step& step, cudaStream_t stream, LaunchOrder order);
  // Vendor alternative `a` with its prepared call: prelude, call, epilogue.
  void runAlternative(size_t a, PreparedVendorCall& call, cudaStream_t stream, LaunchOrder order);
  std::string describeStep(const Step& step) const;
  bool lastLaunchOfKernel(size_t launch) const;
  // The graph outputs in the graph's order, copied from the device.
  std::vector<Tensor> downloadOutputs() const;
  void rebuildSteps();
  // Decides alternative `a` of the kernel launch `i` makes (the inputs of
  // the launch are ready); returns whether the vendor call runs.
  bool chooseVendorCall(size_t i, int a, VendorPolicy policy, VendorChoiceCache& cache, KernelTimer* timer);
  void releaseVendorResources();

  const ExecPlan& plan_;
  GeneratedPlan code_;
  std::unique_ptr<PlanModules> modules_;
  std::vector<DeviceBuffer> owned_;
  std::vector<void*> addresses_; // per buffer (GeneratedPlan numbering)
  // Each launch's argument: GeneratedPlan::bufferSlots addresses, what its
  // launch binds (GeneratedLaunch::buffers).
  std::vector<void*> arguments_;
  std::vector<void*> epilogueArguments_; // the same for each vendor alternative's epilogue
  std::vector<void*> preludeArguments_;  // and its prelude
  std::vector<Step> steps_;
  // Where vendor calls stage their results and work (allocated only for a choice).
  DeviceBuffer vendorStaging_, vendorInput_, vendorWorkspace_;
  std::vector<std::unique_ptr<PreparedVendorCall>> vendorCalls_; // per alternative; null: generated code runs
  std::vector<std::optional<VendorChoice>> choices_;              // per alternative, as vendorChoice says
  LaunchOrder order_ = LaunchOrder::Dependent;
};

} // namespace tcx::gpu
