#include "profiler/KernelTimer.h"

#include "profiler/CudaError.h"
#include "profiler/GpuDevice.h"
#include "profiler/LaunchObserver.h"
#include "support/Error.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace tcx::gpu {
namespace {

// A graph captured from one call of runOnce, instantiated for launching.
class CapturedGraph {
public:
  CapturedGraph(cudaStream_t stream, const std::function<void(cudaStream_t)>& runOnce) {
    checkCuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    try {
      runOnce(stream);
    } catch (...) {
      // Leave the stream usable: end the capture and drop what it held.
      cudaStreamEndCapture(stream, &graph_);
      if (graph_) cudaGraphDestroy(graph_);
      throw;
    }
    checkCuda(cudaStreamEndCapture(stream, &graph_), "cudaStreamEndCapture");
    checkCuda(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate");
  }
  ~CapturedGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch(cudaStream_t stream) { checkCuda(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch"); }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class Event {
public:
  Event() { checkCuda(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event& operator=(Event&&) = delete;

  void record(cudaStream_t stream) { checkCuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  // Microseconds from `start` to this event; both must have completed.
  double usSince(const Event& start) const {
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1000.0;
  }

private:
  cudaEvent_t event_ = nullptr;
};

// Brackets every launch made through CudaModule::launch during one
// repetition with a pair of events; the pairs are reused across repetitions.
class EventBrackets : public LaunchObserver {
public:
  struct Bracket {
    std::string name;
    Event before;
    Event after;
  };

  void startRepetition() { count_ = 0; }
  size_t count() const { return count_; }
  const Bracket& operator[](size_t i) const { return brackets_[i]; }

  void beforeLaunch(std::string_view kernelName, cudaStream_t stream) override {
    if (count_ == brackets_.size()) brackets_.push_back(Bracket{});
    brackets_[count_].name = kernelName;
    brackets_[count_].before.record(stream);
  }
  void afterLaunch(std::string_view, cudaStream_t stream) override { brackets_[count_++].after.record(stream); }

private:
  std::vector<Bracket> brackets_;
  size_t count_ = 0;
};

// A KernelActivity capture that ends even when the repetition throws.
class CaptureScope {
public:
  explicit CaptureScope(KernelActivity& activity) : activity_(activity) { activity_.beginCapture(); }
  ~CaptureScope() {
    if (open_) activity_.endCapture();
  }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

  std::vector<uint32_t> finish() {
    open_ = false;
    return activity_.endCapture();
  }

private:
  KernelActivity& activity_;
  bool open_ = true;
};

void checkSameLaunches(size_t count, size_t firstCount, int repetition) {
  TCX_CHECK(count == firstCount, ErrorKind::InvalidArgument,
            "repetition {} launched {} kernels but the first launched {}: runOnce must launch the same "
            "kernels every time",
            repetition, count, firstCount);
}

// Per-position statistics from samples[repetition][position].
std::vector<LaunchTiming> launchTimings(const std::vector<std::string>& names,
                                        const std::vector<std::vector<double>>& samples) {
  std::vector<LaunchTiming> timings;
  for (size_t position = 0; position < names.size(); ++position) {
    std::vector<double> durations;
    for (const std::vector<double>& repetition : samples) durations.push_back(repetition[position]);
    timings.push_back(LaunchTiming{names[position], summarize(std::move(durations))});
  }
  return timings;
}

} // namespace

KernelTimer::KernelTimer(TimerOptions options) : options_(options) {
  requireGpu();
  // CUPTI instruments modules as they load: enable it before any is loaded.
  if (!options_.forceEvents) KernelActivity::instance();
  checkCuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
}

KernelTimer::~KernelTimer() {
  if (stream_) cudaStreamDestroy(stream_);
}

TimingResult KernelTimer::time(const std::function<void(cudaStream_t)>& runOnce) {
  TCX_CHECK(options_.repetitions > 0 && options_.warmup >= 0, ErrorKind::InvalidArgument,
            "timing needs at least one repetition and no negative warm-up (got {} and {})",
            options_.repetitions, options_.warmup);
  std::optional<CapturedGraph> graph;
  if (options_.asGraph) graph.emplace(stream_, runOnce);
  Repetition repetition = graph ? Repetition([&] { graph->launch(stream_); }) : Repetition([&] { runOnce(stream_); });
  prepare(repetition);
  bool cupti = !options_.forceEvents && KernelActivity::instance().available();
  TimingResult result = cupti ? timeWithCupti(repetition) : timeWithEvents(repetition);
  result.device = gpuInfo().describe();
  result.graph = options_.asGraph;
  result.repetitions = options_.repetitions;
  return result;
}

void KernelTimer::prepare(const Repetition& repetition) {
  for (int i = 0; i < options_.warmup; ++i) {
    if (options_.flushL2) l2Flush_.flush(stream_);
    repetition();
  }
  checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize after warm-up");
}

TimingResult KernelTimer::timeWithCupti(const Repetition& repetition) {
  KernelActivity& activity = KernelActivity::instance();
  std::unordered_map<uint32_t, int> repetitionOf;
  for (int r = 0; r < options_.repetitions; ++r) {
    if (options_.flushL2) l2Flush_.flush(stream_);
    CaptureScope capture(activity);
    repetition();
    for (uint32_t id : capture.finish()) repetitionOf[id] = r;
    checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }
  std::vector<std::vector<KernelRecord>> kernels(options_.repetitions);
  for (KernelRecord& record : activity.collect()) {
    if (auto it = repetitionOf.find(record.correlationId); it != repetitionOf.end())
      kernels[it->second].push_back(std::move(record));
  }

  TCX_CHECK(!kernels[0].empty(), ErrorKind::Internal,
            "CUPTI reported no kernel for the timed launches (were they made on the calling thread?)");
  std::vector<std::vector<double>> samples;
  std::vector<double> totals;
  for (int r = 0; r < options_.repetitions; ++r) {
    std::vector<KernelRecord>& run = kernels[r];
    checkSameLaunches(run.size(), kernels[0].size(), r);
    // Launch order: correlation ids grow with each API call; the kernels of
    // one graph launch share an id and run in order of their starts.
    std::ranges::sort(run, [](const KernelRecord& a, const KernelRecord& b) {
      return std::tie(a.correlationId, a.startNs) < std::tie(b.correlationId, b.startNs);
    });
    std::vector<double> durations;
    uint64_t first = run.front().startNs;
    uint64_t last = run.front().endNs;
    uint64_t previousEnd = 0;
    for (const KernelRecord& record : run) {
      // A kernel launched dependently (CudaModule.h's LaunchOrder) may start
      // before the one before it ends, and waits for it: its own part of the
      // run starts when that one ends, so no time counts twice.
      const uint64_t from = std::min(std::max(record.startNs, previousEnd), record.endNs);
      durations.push_back(static_cast<double>(record.endNs - from) / 1000.0);
      previousEnd = std::max(previousEnd, record.endNs);
      first = std::min(first, record.startNs);
      last = std::max(last, record.endNs);
    }
    samples.push_back(std::move(durations));
    totals.push_back(static_cast<double>(last - first) / 1000.0);
  }

  std::vector<std::string> names;
  for (const KernelRecord& record : kernels[0]) names.push_back(record.name);
  TimingResult result;
  result.source = "cupti";
  result.launches = launchTimings(names, samples);
  result.total = summarize(std::move(totals));
  result.wall = options_.wall ? summarize(untracedWalls(repetition)) : result.total;
  result.lastRun = std::move(kernels.back());
  return result;
}

std::vector<double> KernelTimer::untracedWalls(const Repetition& repetition) {
  struct PausedTracing {
    explicit PausedTracing(KernelActivity& activity) : activity(activity) { activity.pause(); }
    ~PausedTracing() { activity.resume(); }
    KernelActivity& activity;
  } paused(KernelActivity::instance());
  Event start;
  Event end;
  std::vector<double> walls;
  for (int r = 0; r < options_.repetitions; ++r) {
    if (options_.flushL2) l2Flush_.flush(stream_);
    start.record(stream_);
    repetition();
    end.record(stream_);
    checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    walls.push_back(end.usSince(start));
  }
  return walls;
}

TimingResult KernelTimer::timeWithEvents(const Repetition& repetition) {
  EventBrackets brackets;
  Event start;
  Event end;
  std::vector<std::vector<double>> samples;
  std::vector<double> totals;
  std::vector<std::string> names;
  TimingResult result;
  result.source = "cudaEvent";
  for (int r = 0; r < options_.repetitions; ++r) {
    if (options_.flushL2) l2Flush_.flush(stream_);
    brackets.startRepetition();
    start.record(stream_);
    {
      ScopedLaunchObserver observe(brackets);
      repetition();
    }
    end.record(stream_);
    checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");

    if (r == 0)
      for (size_t i = 0; i < brackets.count(); ++i) names.push_back(brackets[i].name);
    checkSameLaunches(brackets.count(), names.size(), r);
    std::vector<double> durations;
    result.lastRun.clear();
    for (size_t i = 0; i < brackets.count(); ++i) {
      const EventBrackets::Bracket& bracket = brackets[i];
      durations.push_back(bracket.after.usSince(bracket.before));
      result.lastRun.push_back(KernelRecord{
          .name = bracket.name,
          .startNs = static_cast<uint64_t>(bracket.before.usSince(start) * 1000.0),
          .endNs = static_cast<uint64_t>(bracket.after.usSince(start) * 1000.0),
      });
    }
    samples.push_back(std::move(durations));
    totals.push_back(end.usSince(start));
  }
  result.launches = launchTimings(names, samples);
  result.total = summarize(std::move(totals));
  result.wall = result.total;
  return result;
}

} // namespace tcx::gpu
