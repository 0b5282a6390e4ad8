#pragma once
// A hook around every launch made through CudaModule::launch on the current
// thread. KernelTimer's cudaEvent fallback uses it to bracket each launch of
// a caller's sequence with events, since without CUPTI nothing else can see
// where one launch ends and the next begins.

#include <cuda_runtime_api.h>

#include <string_view>

namespace tcx::gpu {

class LaunchObserver {
public:
  virtual ~LaunchObserver() = default;
  virtual void beforeLaunch(std::string_view kernelName, cudaStream_t stream) = 0;
  virtual void afterLaunch(std::string_view kernelName, cudaStream_t stream) = 0;

  // The observer installed on this thread, or nullptr.
  static LaunchObserver* current();
};

// Installs an observer on this thread for its lifetime (restoring the
// previous one after), so an exception cannot leave it installed.
class ScopedLaunchObserver {
public:
  explicit ScopedLaunchObserver(LaunchObserver& observer);
  ~ScopedLaunchObserver();
  ScopedLaunchObserver(const ScopedLaunchObserver&) = delete;
  ScopedLaunchObserver& operator=(const ScopedLaunchObserver&) = delete;

private:
  LaunchObserver* previous_;
};

} // namespace tcx::gpu
