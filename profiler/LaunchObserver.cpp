#include "profiler/LaunchObserver.h"

namespace tcx::gpu {
namespace {

thread_local LaunchObserver* currentObserver = nullptr;

} // namespace

LaunchObserver* LaunchObserver::current() { return currentObserver; }

ScopedLaunchObserver::ScopedLaunchObserver(LaunchObserver& observer) : previous_(currentObserver) {
  currentObserver = &observer;
}

ScopedLaunchObserver::~ScopedLaunchObserver() { currentObserver = previous_; }

} // namespace tcx::gpu
