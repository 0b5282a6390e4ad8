#include "profiler/KernelActivity.h"

#include "profiler/CudaError.h"
#include "profiler/GpuDevice.h"
#include "support/Error.h"

#include <cupti.h>

#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <utility>

namespace tcx::gpu {
namespace {

// The kernel record layout of the CUPTI that tcx is built against (CUDA 13);
// CUPTI writes the layout of the version the client was compiled with.
using ActivityKernel = CUpti_ActivityKernel10;

constexpr size_t kBufferBytes = 8 * 1024 * 1024;
constexpr size_t kBufferAlign = 8;

// The ids noted by the capture open on this thread, or nullptr. A plain
// pointer: CUPTI calls back during the runtime's teardown at exit, when a
// thread_local with a destructor may already be gone.
thread_local std::vector<uint32_t>* openCapture = nullptr;

std::string cuptiError(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return text ? text : "unknown CUPTI error";
}

void CUPTIAPI requestBuffer(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxNumRecords = 0;
}

void CUPTIAPI completeBuffer(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validBytes) {
  KernelActivity::instance().addRecords(buffer, validBytes);
  std::free(buffer);
}

} // namespace

KernelActivity& KernelActivity::instance() {
  static KernelActivity* activity = [] {
    auto* created = new KernelActivity();
    created->enable();
    return created;
  }();
  return *activity;
}

KernelActivity::KernelActivity() = default;

void KernelActivity::enable() {
  if (!gpuInfo().available) {
    reason_ = "no CUDA device: " + gpuInfo().reason;
    return;
  }
  // Both API domains: a kernel's record carries the id of the runtime call
  // that launched it, and noting the driver calls beneath it as well costs
  // nothing and holds for kernels launched through the driver API.
  CUpti_SubscriberHandle subscriber = nullptr;
  auto onApiCall = [](void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data) {
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (openCapture && info->callbackSite == CUPTI_API_ENTER) openCapture->push_back(info->correlationId);
  };
  auto succeeded = [&](CUptiResult result, const char* what) {
    if (result != CUPTI_SUCCESS) reason_ = fmt::format("{}: {}", what, cuptiError(result));
    return result == CUPTI_SUCCESS;
  };
  available_ = succeeded(cuptiSubscribe(&subscriber, onApiCall, nullptr), "cuptiSubscribe") &&
               succeeded(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API), "cuptiEnableDomain") &&
               succeeded(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API), "cuptiEnableDomain") &&
               succeeded(cuptiActivityRegisterCallbacks(requestBuffer, completeBuffer),
                         "cuptiActivityRegisterCallbacks") &&
               succeeded(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
}

void KernelActivity::pause() {
  if (CUptiResult result = cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); result != CUPTI_SUCCESS)
    raise(ErrorKind::Internal, "cuptiActivityDisable: {}", cuptiError(result));
}

void KernelActivity::resume() noexcept {
  // A timer then falls back to cudaEvents, saying why (available()).
  if (CUptiResult result = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); result != CUPTI_SUCCESS) {
    available_ = false;
    reason_ = fmt::format("cuptiActivityEnable after a pause: {}", cuptiError(result));
  }
}

void KernelActivity::beginCapture() {
  TCX_CHECK(!openCapture, ErrorKind::Internal, "nested CUPTI captures on one thread");
  openCapture = new std::vector<uint32_t>();
}

std::vector<uint32_t> KernelActivity::endCapture() {
  TCX_CHECK(openCapture, ErrorKind::Internal, "endCapture() without beginCapture()");
  std::unique_ptr<std::vector<uint32_t>> ids(std::exchange(openCapture, nullptr));
  std::lock_guard lock(mutex_);
  wanted_.insert(ids->begin(), ids->end());
  return std::move(*ids);
}

std::vector<KernelRecord> KernelActivity::collect() {
  checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  if (CUptiResult result = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); result != CUPTI_SUCCESS)
    raise(ErrorKind::Internal, "cuptiActivityFlushAll: {}", cuptiError(result));
  std::lock_guard lock(mutex_);
  TCX_CHECK(dropped_ == 0, ErrorKind::Internal, "CUPTI dropped {} activity records", dropped_);
  wanted_.clear();
  return std::exchange(records_, {});
}

void KernelActivity::addRecords(uint8_t* buffer, size_t validBytes) {
  std::lock_guard lock(mutex_);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validBytes, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto* kernel = reinterpret_cast<const ActivityKernel*>(record);
    if (!wanted_.contains(kernel->correlationId)) continue;
    records_.push_back(KernelRecord{
        .name = kernel->name ? kernel->name : "?",
        .startNs = kernel->start,
        .endNs = kernel->end,
        .correlationId = kernel->correlationId,
        .streamId = kernel->streamId,
        .deviceId = kernel->deviceId,
        .graphId = kernel->graphId,
        .grid = {kernel->gridX, kernel->gridY, kernel->gridZ},
        .block = {kernel->blockX, kernel->blockY, kernel->blockZ},
        .sharedBytes = kernel->staticSharedMemory + kernel->dynamicSharedMemory,
        .registersPerThread = kernel->registersPerThread,
    });
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) dropped_ += dropped;
}

} // namespace tcx::gpu
