#include "TestKernels.h"

#include "profiler/CudaModule.h"
#include "profiler/DeviceBuffer.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelTimer.h"
#include "profiler/Nvrtc.h"
#include "profiler/Trace.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tcx;
using namespace tcx::gpu;

namespace {

// Three memory-bound launches over 64 MiB vectors: c = a + b, c *= 2,
// a = c + b.
class ThreeLaunches {
public:
  static constexpr int kCount = 1 << 24;

  ThreeLaunches()
      : module_(*NvrtcCompiler("").compile(test::kVectorKernels).cubin), a_(kBytes), b_(kBytes), c_(kBytes),
        vadd_(module_.kernel("vadd")), scale_(module_.kernel("scale")) {
    a_.memset(0);
    b_.memset(0);
  }

  void operator()(cudaStream_t stream) {
    void* a = a_.data();
    void* b = b_.data();
    void* c = c_.data();
    int n = kCount;
    float two = 2.0f;
    void* sumArgs[] = {&a, &b, &c, &n};
    void* scaleArgs[] = {&c, &two, &n};
    void* againArgs[] = {&c, &b, &a, &n};
    dim3 grid(kCount / 256);
    module_.launch(vadd_, grid, dim3(256), 0, sumArgs, stream);
    module_.launch(scale_, grid, dim3(256), 0, scaleArgs, stream);
    module_.launch(vadd_, grid, dim3(256), 0, againArgs, stream);
  }

private:
  static constexpr size_t kBytes = kCount * sizeof(float);
  CudaModule module_;
  DeviceBuffer a_, b_, c_;
  cudaKernel_t vadd_;
  cudaKernel_t scale_;
};

// Reads a zeroed buffer of `vectors` 16-byte vectors once a run, 4 blocks of 256 threads a multiprocessor.
class ReadAll {
public:
  explicit ReadAll(int vectors)
      : module_(*NvrtcCompiler("").compile(test::kVectorKernels).cubin), kernel_(module_.kernel("readAll")),
        buffer_(size_t(vectors) * 16), sink_(sizeof(float)), vectors_(vectors) {
    buffer_.memset(0);
  }

  void operator()(cudaStream_t stream) {
    void* a = buffer_.data();
    void* out = sink_.data();
    int n = vectors_;
    void* args[] = {&a, &n, &out};
    module_.launch(kernel_, dim3(4 * gpuInfo().smCount), dim3(256), 0, args, stream);
  }

private:
  CudaModule module_;
  cudaKernel_t kernel_;
  DeviceBuffer buffer_, sink_;
  int vectors_;
};

void print(const TimingResult& result) {
  std::printf("%s%s, %d repetitions, on %s\n", result.source.c_str(), result.graph ? " (CUDA graph)" : "",
              result.repetitions, result.device.c_str());
  for (const LaunchTiming& launch : result.launches)
    std::printf("  %-8s median %8.2f us  min %8.2f  max %8.2f  p10-p90 %6.2f\n", launch.name.c_str(),
                launch.stats.medianUs, launch.stats.minUs, launch.stats.maxUs, launch.stats.spreadUs());
  std::printf("  total    median %8.2f us  min %8.2f  max %8.2f  p10-p90 %6.2f\n", result.total.medianUs,
              result.total.minUs, result.total.maxUs, result.total.spreadUs());
  std::printf("  wall     median %8.2f us  p10-p90 %6.2f\n", result.wall.medianUs, result.wall.spreadUs());
}

void checkThreeLaunches(const TimingResult& result) {
  REQUIRE(result.launches.size() == 3);
  CHECK(result.launches[0].name == "vadd");
  CHECK(result.launches[1].name == "scale");
  CHECK(result.launches[2].name == "vadd");
  for (const LaunchTiming& launch : result.launches) {
    CHECK(launch.stats.minUs > 0);
    CHECK(launch.stats.minUs <= launch.stats.medianUs);
    CHECK(launch.stats.medianUs <= launch.stats.maxUs);
  }
  CHECK(result.total.medianUs >= result.launches[0].stats.medianUs);
  CHECK(result.lastRun.size() == 3);
}

} // namespace

TEST_CASE("CUPTI times each of three launches", "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  ThreeLaunches launches;
  KernelTimer timer;
  TimingResult result = timer.time(std::ref(launches));
  print(result);
  CHECK(result.source == "cupti");
  checkThreeLaunches(result);
  double bytes = 3.0 * ThreeLaunches::kCount * sizeof(float);
  std::printf("  vadd moves %.0f MB: %.2f TB/s\n", bytes / 1e6, bytes / (result.launches[0].stats.medianUs * 1e6));
}

TEST_CASE("cudaEvents time the same launches when CUPTI is not used", "[profiler][gpu][timer]") {
  ThreeLaunches launches;
  KernelTimer timer(TimerOptions{.forceEvents = true});
  TimingResult result = timer.time(std::ref(launches));
  print(result);
  CHECK(result.source == "cudaEvent");
  checkThreeLaunches(result);
}

TEST_CASE("CUPTI times the kernels of a CUDA graph", "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  ThreeLaunches launches;
  KernelTimer timer(TimerOptions{.asGraph = true});
  TimingResult result = timer.time(std::ref(launches));
  print(result);
  CHECK(result.source == "cupti");
  CHECK(result.graph);
  checkThreeLaunches(result);
  CHECK(result.lastRun[0].graphId != 0);
}

// While paused, CUPTI records nothing of the kernels launched, even inside
// a capture; resumed, it records them again.
TEST_CASE("kernels launched while CUPTI is paused leave no record", "[profiler][gpu][timer]") {
  KernelActivity& activity = KernelActivity::instance();
  REQUIRE(activity.available());
  ThreeLaunches launches;
  auto recorded = [&](bool paused) {
    if (paused) activity.pause();
    activity.beginCapture();
    launches(nullptr);
    activity.endCapture();
    if (paused) activity.resume();
    return activity.collect().size();
  };
  CHECK(recorded(false) == 3);
  CHECK(recorded(true) == 0);
  CHECK(recorded(false) == 3);
  CHECK(activity.available());
}

// The wall time runs in repetitions of its own, untraced (the case above
// checks that paused tracing records nothing); tracing is back on for the
// next timing, and the wall is no less than most of the kernels' time.
TEST_CASE("a graph's wall time is timed with CUPTI's tracing paused", "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  ThreeLaunches launches;
  KernelTimer timer(TimerOptions{.asGraph = true, .wall = true});
  TimingResult result = timer.time(std::ref(launches));
  print(result);
  double kernels = 0;
  for (const LaunchTiming& launch : result.launches) kernels += launch.stats.medianUs;
  CHECK(result.wall.medianUs > 0.8 * kernels);
  TimingResult again = timer.time(std::ref(launches));
  CHECK(again.source == "cupti");
  checkThreeLaunches(again);
}

// A 16 MiB buffer fits in L2: read again right after a read it comes from L2, after the flush from
// DRAM, so the flushed read takes clearly longer (on an H200 about twice as long).
TEST_CASE("the L2 flush evicts what the last repetition read", "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  ReadAll read(1 << 20);
  double flushed = KernelTimer({.flushL2 = true}).time(std::ref(read)).launches.at(0).stats.medianUs;
  double warm = KernelTimer({.flushL2 = false}).time(std::ref(read)).launches.at(0).stats.medianUs;
  std::printf("16 MiB read: %.2f us after the flush, %.2f us from L2\n", flushed, warm);
  CHECK(flushed > 1.3 * warm);
}

// After a memset of twice the L2's size, L2 is full of dirty lines that a 256 MiB read writes back as
// it evicts them; after the flush (itself a read) there are none, so the same read is faster. On an
// H200 a 256 MiB read took 74.0 us after a memset and 65.3 after a read flush (docs/benchmarks.md).
TEST_CASE("the L2 flush leaves no dirty lines for the timed run to write back", "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  ReadAll read(1 << 24);
  DeviceBuffer dirty(static_cast<size_t>(2 * gpuInfo().l2Bytes));
  // CUPTI's kernel records leave the memset out: launch 0 is the read alone.
  auto dirtyThenRead = [&](cudaStream_t stream) {
    dirty.memset(1, stream);
    read(stream);
  };
  double clean = KernelTimer().time(std::ref(read)).launches.at(0).stats.medianUs;
  double afterMemset = KernelTimer().time(dirtyThenRead).launches.at(0).stats.medianUs;
  std::printf("256 MiB read: %.2f us after the flush, %.2f us after a memset\n", clean, afterMemset);
  CHECK(afterMemset > 1.05 * clean);
}

// A kernel launched dependently, let in early by the one before it, starts
// while that one spins for 20 us, still reads what it wrote last
// (awaitPredecessors), and is timed from that one's end on: its own part of
// the run, not its wait.
TEST_CASE("a dependent launch overlaps the kernel before it, reads its writes, and is timed after it",
          "[profiler][gpu][timer]") {
  REQUIRE(KernelActivity::instance().available());
  if (!gpuInfo().dependentLaunch()) {
    WARN("programmatic dependent launch needs a 9.0 device; " << gpuInfo().name << " launches serially");
    return;
  }
  CudaModule module(*NvrtcCompiler("").compile(test::kDependentKernels).cubin);
  cudaKernel_t slow = module.kernel("slowIncrement"), copy = module.kernel("copyAfter");
  DeviceBuffer counter(sizeof(int)), out(sizeof(int));
  counter.memset(0);
  out.memset(0xff);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess); // the timer's stream does not wait for the default one
  auto run = [&](LaunchOrder order) {
    return [&, order](cudaStream_t stream) {
      void* c = counter.data();
      void* o = out.data();
      unsigned long long ns = 20000;
      void* slowArgs[] = {&c, &ns};
      void* copyArgs[] = {&c, &o};
      module.launch(slow, dim3(1), dim3(32), 0, slowArgs, stream);
      module.launch(copy, dim3(1), dim3(1), 0, copyArgs, stream, order);
    };
  };
  auto read = [](const DeviceBuffer& b) {
    int value = 0;
    b.download(&value, sizeof value);
    return value;
  };
  const TimingResult overlapped = KernelTimer({.repetitions = 10}).time(run(LaunchOrder::Dependent));
  print(overlapped);
  // 3 warm-up runs and 10 timed ones, each copying the count after its increment.
  CHECK(read(counter) == 13);
  CHECK(read(out) == 13);
  REQUIRE(overlapped.lastRun.size() == 2);
  const KernelRecord& first = overlapped.lastRun[0];
  const KernelRecord& second = overlapped.lastRun[1];
  CHECK(second.startNs < first.endNs - 10000);
  CHECK(second.durationUs() > 10);
  CHECK(overlapped.launches[1].stats.medianUs < 5);
  CHECK(overlapped.launches[0].stats.medianUs > 19);

  const TimingResult serial = KernelTimer({.repetitions = 10}).time(run(LaunchOrder::Serial));
  CHECK(read(out) == 26);
  CHECK(serial.lastRun.at(1).startNs >= serial.lastRun.at(0).endNs);
  CHECK(serial.launches.at(1).stats.medianUs < 5);
}

TEST_CASE("one timed run becomes a Chrome trace", "[profiler][gpu][trace]") {
  ThreeLaunches launches;
  KernelTimer timer(TimerOptions{.warmup = 1, .repetitions = 2});
  TimingResult result = timer.time(std::ref(launches));
  auto path = std::filesystem::temp_directory_path() / ("tcx_gpu_trace_" + std::to_string(::getpid()) + ".json");
  writeChromeTrace(path.string(), result.lastRun, "tcx: profiler_gpu_test");
  std::ifstream in(path);
  nlohmann::json trace = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  const nlohmann::json& events = trace.at("traceEvents");
  REQUIRE(events.size() == 4);
  for (size_t i = 1; i < events.size(); ++i) {
    CHECK(events[i].at("ph") == "X");
    CHECK(events[i].at("dur").get<double>() > 0);
    CHECK(events[i].at("ts").get<double>() >= events[i - 1].value("ts", 0.0));
  }
  std::printf("trace: %s\n", trace.dump().c_str());
}
