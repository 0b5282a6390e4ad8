#pragma once
// The GPU backend (profiler/) as both front ends use it: `tcx profile`,
// `tcx optimize --oracle profile` and the explorer's measured mode. Nothing
// here names a CUDA type, so callers build the same with or without the
// toolkit; without it (GpuBackendUnavailable.cpp) every entry that would run
// on the GPU raises Unsupported with the reason, and gpuStatus() says it.

#include "codegen/VendorCall.h"
#include "exec/Compare.h"
#include "exec/ReferenceExecutor.h"
#include "pipeline/VtcSession.h"
#include "support/Progress.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcx::backend {

// Whether plans can run here: the device (available), or why not
// ("no CUDA device: ...", "this build has no CUDA toolkit ...").
struct GpuStatus {
  bool available = false;
  std::string name;     // "NVIDIA H100 80GB HBM3"; empty when unavailable
  std::string describe; // the device, clocks, driver and runtime; or the reason
};
GpuStatus gpuStatus();
// Raises Unsupported with gpuStatus().describe when no device is available.
void requireGpu();

// VTC Algorithm 2's oracle on the GPU: every strategy timed.
std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession& session, PlanOptions options);

// One plan kernel's time: the sum of its launches' medians.
struct KernelTime {
  std::string name;
  bool dataMovement = false;
  int launches = 0;
  double us = 0;
  std::vector<std::string> forms; // each launch's code form, as codegen describes it ("conv 3x3 ...")
  // For a kernel with a vendor alternative: what choosing timed for each
  // form (medians, L2 flushed; read from the choices' cache when `cached`).
  struct VendorTiming {
    bool vendor = false; // the library call was chosen
    double generatedUs = 0, vendorUs = 0;
    bool cached = false;
    std::string library; // the library form timed (gpu::describeAlgorithm): "cuDNN FFT_TILING"
  };
  std::optional<VendorTiming> choice;
};

struct PlanProfile {
  std::string label;
  std::vector<KernelTime> kernels;
  double totalUs = 0; // first kernel's start to last kernel's end, median
  // One run as a caller sees it: cudaEvents around the launch (of the whole
  // plan as one CUDA graph, by default), L2 flushed before; median and the
  // p10-p90 spread.
  double wallUs = 0, wallSpreadUs = 0;
  bool graph = false; // launched as one CUDA graph
  // Each kernel after the first launched as the one before it ended
  // (programmatic dependent launch, profiler/CudaModule.h): asked for
  // (ProfileSettings::dependentLaunch) on a device that has it.
  bool dependentLaunch = false;
  double dataMovementUs = 0, computeUs = 0;
  double compileMs = 0;
  // The module's parts (compiled in parallel) and how many of them came from
  // the compile cache: all of them on a warm run.
  size_t compileParts = 0, compileCached = 0;
  double compileSlowestPartMs = 0; // the part the compile waited for
  // Plan kernels that could run a vendor library call, how many do, and how
  // long choosing took (measuring, or reading the choices' cache).
  size_t vendorAlternatives = 0, vendorCalls = 0;
  double vendorChoiceMs = 0;
  int64_t extraBytes = 0; // device memory beyond inputs and donated outputs: outputs, intermediates, workspaces
  std::string timingSource;
  std::optional<GpuCheck> check; // against the reference, when one was given
  PlanLatency latency; // per plan kernel, for the session and the report
};

struct ProfileSettings {
  int repetitions = 50;
  // Capture the plan's launches once and time launches of that CUDA graph
  // (what a serving loop would run); else the launches one by one.
  bool asGraph = true;
  // Which plan kernels run a vendor library call instead of their generated
  // code (codegen/VendorCall.h): by default those where it measured faster.
  VendorPolicy vendor = VendorPolicy::Measure;
  // Launch each kernel of the plan as the one before it ends (programmatic
  // dependent launch, Hopper on): its launch overlaps that kernel's
  // completion. Off, each starts after the one before it completes, to
  // measure what that gains.
  bool dependentLaunch = true;
  // Also write a Chrome/Perfetto trace of the last timed run here, titled so.
  std::string tracePath, traceTitle;
};

// Compiles and times plans on device 0; one NVRTC compiler (and its cache)
// serves every plan it profiles.
class PlanProfiler {
public:
  PlanProfiler(); // raises Unsupported without a device
  ~PlanProfiler();
  PlanProfiler(const PlanProfiler&) = delete;
  PlanProfiler& operator=(const PlanProfiler&) = delete;

  // Times `plan` on `inputs`; with a `reference`, first checks its outputs
  // against it. `estimates` gives the per-kernel bytes and flops. Errors
  // (GpuPlan's) name the plan and the graph.
  PlanProfile profile(const std::string& label, const ExecPlan& plan, const PlanLatency& estimates,
                      const std::map<std::string, Tensor>& inputs, const ExecutionResult* reference,
                      const ProfileSettings& settings);

private:
  // profile() without the plan named in its errors.
  PlanProfile profileOrRaise(const std::string& label, const ExecPlan& plan, const PlanLatency& estimates,
                             const std::map<std::string, Tensor>& inputs, const ExecutionResult* reference,
                             const ProfileSettings& settings);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Both plans' latencies as measured on one GPU, and each plan's outputs
// checked against the CPU reference (when MeasureControl::check).
struct MeasuredLatency {
  PlanLatency baseline, optimized;
  std::string device;
  std::optional<GpuCheck> baselineCheck, optimizedCheck;
};

// "GPU outputs checked against the CPU reference: baseline passed (...);
// optimised passed (...)." or empty when neither plan was checked: what the
// explorers print beside measured latencies.
std::string checkVerdict(const MeasuredLatency& measured);

struct MeasureControl {
  int repetitions = 20;
  // Run the reference executor first and check both plans against it.
  bool check = true;
  // Checked between the steps (compiling and timing each plan): set it from
  // another thread to stop early.
  const std::atomic<bool>* cancel = nullptr;
  ProgressFn progress;
};

// Times (and checks) both plans of `session`, reading it only, so the explorer can run
// it off the UI thread while the session stays unchanged; nullopt when
// cancelled.
std::optional<MeasuredLatency> measurePlans(const VtcSession& session, const MeasureControl& control);
// measurePlans, recorded in the session.
void measureSession(VtcSession& session, int repetitions);

} // namespace tcx::backend
