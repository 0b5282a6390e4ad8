#pragma once
// Times a sequence of kernel launches (one run of a plan, say) over many
// repetitions and reports each launch position's duration and the whole
// run's. Each repetition starts with the L2 cache flushed and the device
// idle, after warm-up repetitions; the flush is not part of any result.
//
// The primary source is CUPTI (KernelActivity.h): GPU start and end of every
// kernel, however the caller launches it. Where CUPTI is unavailable (or
// TimerOptions::forceEvents is set) cudaEvents bracket each launch made
// through CudaModule::launch instead; those durations include the launch
// gap when the GPU outruns the host, so they read a little higher.

#include "profiler/KernelActivity.h"
#include "profiler/L2Flush.h"
#include "profiler/TimingStats.h"

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

namespace tcx::gpu {

struct TimerOptions {
  int warmup = 3;
  int repetitions = 20;
  bool flushL2 = true;
  // Time with cudaEvents even when CUPTI is available.
  bool forceEvents = false;
  // Capture the launches into a CUDA graph once (stream capture) and time
  // launches of the graph. With cudaEvents only the total is measured then.
  bool asGraph = false;
  // With CUPTI, also time TimingResult::wall, in repetitions of their own
  // with tracing paused; otherwise wall is the traced first-to-last-kernel span.
  bool wall = false;
};

struct LaunchTiming {
  std::string name; // the kernel's name
  TimingStats stats;
};

struct TimingResult {
  std::string source; // "cupti" or "cudaEvent"
  std::string device; // gpuInfo().describe(): the GPU, driver and clocks
  bool graph = false;
  int repetitions = 0;
  // One entry per launch position of the sequence, in launch order. With
  // CUPTI a kernel's time runs from the later of its start and the previous
  // kernel's end: a dependent launch (CudaModule.h) may start early and wait.
  std::vector<LaunchTiming> launches;
  // Per repetition: the first kernel's start to the last kernel's end.
  TimingStats total;
  // Per repetition: cudaEvents recorded on the stream before and after it
  // (around the graph launch with asGraph): the wall time of one run as its
  // caller sees it, launch gaps and overheads included. With CUPTI these are
  // repetitions of their own, run with kernel tracing paused
  // (TimerOptions::wall).
  TimingStats wall;
  // The kernels of the last repetition, for a trace (Trace.h); with
  // cudaEvents the times count from the start of that repetition.
  std::vector<KernelRecord> lastRun;
};

class KernelTimer {
public:
  // Raises Unsupported without a device.
  explicit KernelTimer(TimerOptions options = {});
  ~KernelTimer();
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

  // Calls `runOnce` once per repetition (once in all with asGraph); it must
  // launch the same kernels in the same order on the stream it is given,
  // and may not synchronise it.
  TimingResult time(const std::function<void(cudaStream_t)>& runOnce);

  cudaStream_t stream() const { return stream_; }

private:
  // Launches one repetition: runOnce, or the graph captured from it.
  using Repetition = std::function<void()>;

  void prepare(const Repetition& repetition);
  TimingResult timeWithCupti(const Repetition& repetition);
  TimingResult timeWithEvents(const Repetition& repetition);
  // One wall time per repetition, CUPTI's tracing paused.
  std::vector<double> untracedWalls(const Repetition& repetition);

  TimerOptions options_;
  cudaStream_t stream_ = nullptr;
  L2Flush l2Flush_;
};

} // namespace tcx::gpu
