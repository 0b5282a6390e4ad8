#pragma once
// Per-kernel GPU start and end times from CUPTI's activity API
// (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, which unlike the plain KERNEL kind
// does not serialise kernels). Kernels are attributed to the calls that
// launched them by correlation id: between beginCapture() and endCapture()
// the ids of the thread's CUDA API calls are noted, and only kernels with
// those ids are kept. A graph launch's kernels all carry the id of the
// cudaGraphLaunch call.
//
// CUPTI must be enabled before modules load (it instruments them as they
// load), so CudaModule enables it on construction; a program may also call
// instance() first thing.

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace tcx::gpu {

struct KernelRecord {
  std::string name; // as the cubin spells it (mangled unless extern "C")
  uint64_t startNs = 0;
  uint64_t endNs = 0;
  uint32_t correlationId = 0;
  uint32_t streamId = 0;
  uint32_t deviceId = 0;
  uint32_t graphId = 0; // 0 unless launched as part of a graph
  std::array<int, 3> grid{};
  std::array<int, 3> block{};
  int sharedBytes = 0; // static plus dynamic
  int registersPerThread = 0;

  double durationUs() const { return static_cast<double>(endNs - startNs) / 1000.0; }
};

class KernelActivity {
public:
  // The process's collector, enabling CUPTI on first use. It is never
  // destroyed: CUPTI may deliver buffers while the process exits.
  static KernelActivity& instance();

  // False when CUPTI could not be enabled (no device, or another tool such
  // as Nsight holds it); reason() then says why.
  bool available() const { return available_; }
  const std::string& reason() const { return reason_; }

  // Starts noting the correlation ids of this thread's CUDA API calls.
  void beginCapture();
  // Stops, and returns the ids noted since beginCapture(), in call order.
  std::vector<uint32_t> endCapture();

  // Waits for the device, flushes CUPTI's buffers and returns the records of
  // every kernel launched inside a capture since the last collect(), in no
  // particular order. Raises Internal if CUPTI dropped records.
  std::vector<KernelRecord> collect();

  // Kernel records off until resume(). CUPTI's kernel tracing costs every
  // launch time (about a microsecond a kernel of a graph), which a wall time
  // as a caller sees it must not include. Records of kernels that ran before
  // stay, but collect() them first: pausing may hold back their delivery.
  void pause();
  void resume() noexcept;

  // Keeps the wanted kernel records of an activity buffer; for CUPTI's
  // buffer-completed callback.
  void addRecords(uint8_t* buffer, size_t validBytes);

private:
  KernelActivity();
  void enable();

  bool available_ = false;
  std::string reason_;
  std::mutex mutex_;
  std::unordered_set<uint32_t> wanted_;
  std::vector<KernelRecord> records_;
  size_t dropped_ = 0;
};

} // namespace tcx::gpu
