#include "ops/nn/Parallel.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tcx::nn {

namespace {

// Below this much work a thread costs more to start than it saves.
constexpr double kMinWorkPerThread = 1 << 18;

thread_local bool insideParallelRegion = false;

} // namespace

int64_t maxThreads() {
  static const int64_t n = std::max<int64_t>(1, std::thread::hardware_concurrency());
  return n;
}

void parallelFor(int64_t n, double costPerItem, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  const double work = static_cast<double>(n) * costPerItem;
  const int64_t byWork = static_cast<int64_t>(work / kMinWorkPerThread);
  const int64_t threads = insideParallelRegion ? 1 : std::clamp<int64_t>(byWork, 1, std::min(n, maxThreads()));
  if (threads == 1) {
    body(0, n);
    return;
  }

  std::exception_ptr failure;
  std::mutex failureMutex;
  auto runChunk = [&](int64_t t) {
    insideParallelRegion = true;
    try {
      body(n * t / threads, n * (t + 1) / threads);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failureMutex);
      if (!failure) failure = std::current_exception();
    }
    insideParallelRegion = false;
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(threads - 1));
  for (int64_t t = 1; t < threads; ++t) workers.emplace_back(runChunk, t);
  runChunk(0);
  for (std::thread& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
}

} // namespace tcx::nn
