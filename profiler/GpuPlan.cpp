#include "profiler/GpuPlan.h"

#include "profiler/CudaError.h"
#include "profiler/CudaModule.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelBlame.h"
#include "profiler/PlanModules.h"
#include "profiler/VendorSelection.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace tcx::gpu {

namespace {

double mib(int64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

// Raises Device, before any allocation, when the plan's buffers cannot fit in
// the device memory that is free: a clearer message than cudaMalloc's, with
// where the bytes go.
void requireDeviceMemory(const ExecPlan& plan, const GeneratedPlan& code) {
  int64_t external = 0;
  for (const PlanBuffer& b : plan.buffers)
    if (b.aliasOf < 0 && b.kind != PlanBuffer::Kind::Intermediate) external += std::max<int64_t>(b.bytes, 1);
  int64_t scratch = 0;
  for (int64_t bytes : code.scratchBytes) scratch += bytes;
  const int64_t needed = plan.arenaBytes + external + scratch;
  size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  TCX_CHECK(needed <= static_cast<int64_t>(free), ErrorKind::Device,
            "the plan needs {:.1f} MiB of device memory (inputs, outputs and constants {:.1f} MiB, intermediates "
            "{:.1f} MiB, workspaces {:.1f} MiB) but {} has {:.1f} MiB free of {:.1f} MiB",
            mib(needed), mib(external), mib(plan.arenaBytes), mib(scratch), gpuInfo().name,
            mib(static_cast<int64_t>(free)), mib(static_cast<int64_t>(total)));
}

// NVRTC's message with the plan kernel its first error is in, when it is in one.
Error blameCompileError(const Error& e, const ExecPlan& plan, const GeneratedPlan& code) {
  const std::optional<int> line = firstErrorLine(e.what());
  const std::optional<int> kernel = line ? planKernelAtLine(code, *line) : std::nullopt;
  if (!kernel) return e;
  return e.withContext("generated code of " + describePlanKernel(plan.kernels[*kernel]));
}

// The workspace cuDNN's algorithm search may use; an algorithm that needs
// more is not tried. After the choice the workspace shrinks to what the
// chosen calls need.
constexpr size_t kVendorSearchBytes = 64 << 20;

// Everything a measured choice between launch `l`'s code and `alternative`
// depends on (the device apart: VendorChoiceCache adds it).
std::string choiceKey(const GeneratedPlan& code, const GeneratedLaunch& l, const VendorAlternative& alternative) {
  std::string key = vendorCallKey(alternative.call) + "\n";
  const GeneratedLaunch none;
  for (const GeneratedLaunch* launch : {&l, &alternative.epilogue, alternative.prelude ? &*alternative.prelude : &none}) {
    key += fmt::format("{} {} {} {} {} {} {}", launch->entry, launch->grid[0], launch->grid[1], launch->grid[2],
                       launch->block[0], launch->sharedBytes, launch->buffers.size());
    // A buffer's offset matters to the choice by its alignment; a launch value (a GEMM's K) as itself.
    for (const BufferBinding& b : launch->buffers)
      key += fmt::format(" {}", b.isValue() ? b.byteOffset : b.byteOffset % 16);
    key += "\n";
  }
  return key += code.spanText(code.kernelSpans.at(code.codeKernel.at(l.planKernel)));
}

} // namespace

GpuPlan::GpuPlan(const ExecPlan& plan, GeneratedPlan code, NvrtcCompiler& compiler)
    : plan_(plan), code_(std::move(code)) {
  requireGpu();
  try {
    modules_ = std::make_unique<PlanModules>(code_, compiler);
  } catch (const Error& e) {
    throw blameCompileError(e, plan_, code_);
  }
  requireDeviceMemory(plan_, code_);

  addresses_.assign(code_.numBuffers(), nullptr);
  DeviceBuffer arena(static_cast<size_t>(std::max<int64_t>(plan.arenaBytes, 1)));
  char* arenaBase = static_cast<char*>(arena.data());
  owned_.push_back(std::move(arena));
  for (const PlanBuffer& b : plan.buffers) {
    if (b.aliasOf >= 0) continue;
    if (b.kind == PlanBuffer::Kind::Intermediate) {
      addresses_[b.id] = arenaBase + b.arenaOffset;
    } else {
      owned_.emplace_back(static_cast<size_t>(std::max<int64_t>(b.bytes, 1)));
      addresses_[b.id] = owned_.back().data();
    }
  }
  for (const PlanBuffer& b : plan.buffers)
    if (b.aliasOf >= 0) addresses_[b.id] = addresses_[b.aliasOf];
  for (size_t i = 0; i < code_.scratchBytes.size(); ++i) {
    if (code_.forVendorCalls(static_cast<int>(code_.numPlanBuffers + i))) continue; // allocated when chosen
    owned_.emplace_back(static_cast<size_t>(code_.scratchBytes[i]));
    addresses_[code_.numPlanBuffers + i] = owned_.back().data();
    if (code_.scratchZeroed[i]) owned_.back().memset(0);
  }
  arguments_ = bindArguments(code_.launches);
  vendorCalls_.resize(code_.vendorAlternatives.size());
  choices_.resize(code_.vendorAlternatives.size());
  rebuildSteps();
}

std::vector<void*> GpuPlan::bindArguments(const std::vector<GeneratedLaunch>& launches) const {
  std::vector<void*> arguments(launches.size() * code_.bufferSlots, nullptr);
  for (size_t l = 0; l < launches.size(); ++l) {
    const std::vector<BufferBinding>& bound = launches[l].buffers;
    TCX_CHECK(bound.size() <= code_.bufferSlots, ErrorKind::Internal, "launch {} binds {} buffers, Buffers holds {}",
              l, bound.size(), code_.bufferSlots);
    for (size_t s = 0; s < bound.size(); ++s)
      arguments[l * code_.bufferSlots + s] =
          bound[s].isValue() ? reinterpret_cast<void*>(bound[s].byteOffset)
                             : static_cast<char*>(addresses_.at(bound[s].buffer)) + bound[s].byteOffset;
  }
  return arguments;
}

GpuPlan::~GpuPlan() = default;

void GpuPlan::setInputs(const std::map<std::string, Tensor>& inputs) {
  for (const PlanBuffer& b : plan_.buffers) {
    if (b.aliasOf >= 0) continue;
    if (b.kind == PlanBuffer::Kind::Constant) {
      const Tensor& t = b.tensor->constant();
      checkCuda(cudaMemcpy(addresses_[b.id], t.raw(), t.byteSize(), cudaMemcpyHostToDevice), "uploading a constant");
    } else if (b.kind == PlanBuffer::Kind::Input) {
      auto it = inputs.find(b.tensor->name());
      TCX_CHECK(it != inputs.end(), ErrorKind::InvalidArgument, "no value given for graph input '{}'",
                b.tensor->name());
      TCX_CHECK(it->second.type() == b.tensor->type(), ErrorKind::InvalidArgument,
                "graph input '{}' is {} but {} was given", b.tensor->name(), b.tensor->type().toString(),
                it->second.type().toString());
      checkCuda(cudaMemcpy(addresses_[b.id], it->second.raw(), it->second.byteSize(), cudaMemcpyHostToDevice),
                "uploading an input");
    }
  }
}

void GpuPlan::poison() {
  for (const PlanBuffer& b : plan_.buffers)
    if (b.aliasOf < 0 && (b.kind == PlanBuffer::Kind::Output || b.kind == PlanBuffer::Kind::Intermediate))
      checkCuda(cudaMemset(addresses_[b.id], 0xff, static_cast<size_t>(b.bytes)), "poisoning a buffer");
}

void GpuPlan::launch(size_t i, cudaStream_t stream, LaunchOrder order) {
  // Every kernel takes its buffers' addresses by value (GeneratedPlan.h).
  void* args[] = {&arguments_[i * code_.bufferSlots]};
  modules_->launch(i, args, stream, order);
}

void GpuPlan::runStep(const Step& step, cudaStream_t stream, LaunchOrder order) {
  if (step.alternative < 0) return launch(step.launch, stream, order);
  runAlternative(static_cast<size_t>(step.alternative), *vendorCalls_[step.alternative], stream, order);
}

void GpuPlan::runAlternative(size_t a, PreparedVendorCall& call, cudaStream_t stream, LaunchOrder order) {
  if (code_.vendorAlternatives[a].prelude) {
    void* args[] = {&preludeArguments_[a * code_.bufferSlots]};
    modules_->launchPrelude(a, args, stream, order);
  }
  // The library's kernels start after the kernel before them completes; the
  // epilogue is launched as the last of them ends.
  call.enqueue(stream, {vendorWorkspace_.data(), vendorWorkspace_.size()});
  void* args[] = {&epilogueArguments_[a * code_.bufferSlots]};
  modules_->launchEpilogue(a, args, stream, order);
}

// An alternative replaces its kernel's last launch (VendorAlternative).
bool GpuPlan::lastLaunchOfKernel(size_t launch) const {
  return launch + 1 == code_.launches.size() ||
         code_.launches[launch + 1].planKernel != code_.launches[launch].planKernel;
}

std::string GpuPlan::describeStep(const Step& step) const {
  if (step.alternative >= 0) return code_.vendorAlternatives[step.alternative].epilogue.what;
  const GeneratedLaunch& l = code_.launches[step.launch];
  return fmt::format("{}, entry {}", l.what, l.entry);
}

void GpuPlan::rebuildSteps() {
  std::vector<int> alternativeOf(plan_.kernels.size(), -1);
  for (size_t a = 0; a < vendorCalls_.size(); ++a)
    if (vendorCalls_[a]) alternativeOf[code_.vendorAlternatives[a].planKernel] = static_cast<int>(a);
  steps_.clear();
  for (size_t i = 0; i < code_.launches.size(); ++i)
    steps_.push_back({i, lastLaunchOfKernel(i) ? alternativeOf[code_.launches[i].planKernel] : -1});
}

void GpuPlan::enqueue(cudaStream_t stream) {
  // The first kernel waits for whatever came before it on the stream (the
  // timer's L2 flush, which is no plan kernel); each later one is launched
  // as the one before it ends, and awaits it.
  for (size_t i = 0; i < steps_.size(); ++i) runStep(steps_[i], stream, i == 0 ? LaunchOrder::Serial : order_);
}

std::vector<Tensor> GpuPlan::run() {
  // One launch at a time, so that a fault names its kernel: an error from
  // an asynchronous launch only surfaces at the next synchronisation, and
  // after a fault the context is lost, so it cannot be found by rerunning.
  for (size_t i = 0; i < steps_.size(); ++i) {
    const GeneratedLaunch& l = code_.launches[steps_[i].launch];
    try {
      runStep(steps_[i], nullptr, LaunchOrder::Serial);
      checkCuda(cudaDeviceSynchronize(), fmt::format("launch {} of {} ({})", i + 1, steps_.size(),
                                                     describeStep(steps_[i])));
    } catch (const Error& e) {
      throw e.withContext(describePlanKernel(plan_.kernels[l.planKernel]));
    }
  }
  return downloadOutputs();
}

std::vector<Tensor> GpuPlan::runEnqueued() {
  // The inputs' copies and the poison went to the default stream: a stream
  // created without flags waits for them.
  cudaStream_t stream = nullptr;
  checkCuda(cudaStreamCreate(&stream), "cudaStreamCreate");
  try {
    enqueue(stream);
    checkCuda(cudaStreamSynchronize(stream), "a run of the plan as timed");
  } catch (...) {
    cudaStreamDestroy(stream);
    throw;
  }
  cudaStreamDestroy(stream);
  return downloadOutputs();
}

std::vector<Tensor> GpuPlan::downloadOutputs() const {
  std::vector<Tensor> outputs;
  for (const Value* out : plan_.kernelGraph->graph().outputs()) {
    if (out->isConstant()) {
      outputs.push_back(out->constant());
      continue;
    }
    Tensor t(out->type());
    int b = plan_.bufferOf(out);
    TCX_CHECK(b >= 0, ErrorKind::Internal, "graph output '{}' has no buffer in the plan", out->name());
    checkCuda(cudaMemcpy(t.raw(), addresses_[b], t.byteSize(), cudaMemcpyDeviceToHost), "downloading an output");
    outputs.push_back(std::move(t));
  }
  return outputs;
}

void GpuPlan::chooseVendorCalls(VendorPolicy policy) {
  releaseVendorResources();
  std::ranges::fill(choices_, std::nullopt);
  if (policy == VendorPolicy::Never || code_.vendorAlternatives.empty()) return;
  const int staging = code_.vendorStaging();
  vendorStaging_ = DeviceBuffer(static_cast<size_t>(code_.scratchBytes.at(staging - code_.numPlanBuffers)));
  vendorWorkspace_ = DeviceBuffer(kVendorSearchBytes);
  addresses_[staging] = vendorStaging_.data();
  if (const int input = code_.vendorInput(); input >= 0) {
    vendorInput_ = DeviceBuffer(static_cast<size_t>(code_.scratchBytes.at(input - code_.numPlanBuffers)));
    addresses_[input] = vendorInput_.data();
  }
  std::vector<GeneratedLaunch> epilogues, preludes;
  for (const VendorAlternative& a : code_.vendorAlternatives) {
    epilogues.push_back(a.epilogue);
    preludes.push_back(a.prelude.value_or(GeneratedLaunch{}));
  }
  epilogueArguments_ = bindArguments(epilogues);
  preludeArguments_ = bindArguments(preludes);

  std::vector<int> alternativeOf(plan_.kernels.size(), -1);
  for (size_t a = 0; a < code_.vendorAlternatives.size(); ++a)
    alternativeOf[code_.vendorAlternatives[a].planKernel] = static_cast<int>(a);
  VendorChoiceCache cache;
  std::optional<KernelTimer> timer;
  if (policy == VendorPolicy::Measure) timer.emplace(vendorSelectionTimer());
  // In plan order, so that every kernel is timed on the values it reads.
  for (size_t i = 0; i < code_.launches.size(); ++i) {
    const int a = lastLaunchOfKernel(i) ? alternativeOf[code_.launches[i].planKernel] : -1;
    if (a >= 0) chooseVendorCall(i, a, policy, cache, timer ? &*timer : nullptr);
    launch(i, nullptr, LaunchOrder::Serial);
    checkCuda(cudaDeviceSynchronize(), fmt::format("choosing vendor calls: {}", describeStep({i, -1})));
  }
  if (vendorCallsChosen() == 0) return releaseVendorResources();
  size_t workspace = 0;
  for (const std::unique_ptr<PreparedVendorCall>& call : vendorCalls_)
    if (call) workspace = std::max(workspace, call->workspaceBytes());
  vendorWorkspace_ = DeviceBuffer(std::max<size_t>(workspace, 1));
  rebuildSteps();
}

bool GpuPlan::chooseVendorCall(size_t i, int a, VendorPolicy policy, VendorChoiceCache& cache, KernelTimer* timer) {
  const VendorAlternative& alternative = code_.vendorAlternatives[a];
  const std::string key = choiceKey(code_, code_.launches[i], alternative);
  std::optional<VendorChoice> choice = policy == VendorPolicy::Measure ? cache.find(key) : std::nullopt;
  choices_[a] = choice;
  if (choice && !choice->vendor) return false;
  const VendorWorkspace workspace{vendorWorkspace_.data(), vendorWorkspace_.size()};
  std::unique_ptr<PreparedVendorCall> call;
  try {
    call = std::make_unique<PreparedVendorCall>(alternative.call, addresses_, vendorStaging_.data(), workspace,
                                                choice ? choice->algorithm : VendorAlgorithm{});
  } catch (const Error& e) {
    // Measuring, a call the library refuses leaves the generated code,
    // which is correct; asked to always call the library, that is an error.
    if (policy == VendorPolicy::Always) throw e.withContext(describePlanKernel(plan_.kernels[alternative.planKernel]));
    return false;
  }
  if (!choice && policy == VendorPolicy::Measure) {
    choice = measureVendorChoice(
        *timer, [&](cudaStream_t stream) { launch(i, stream, LaunchOrder::Serial); },
        [&](cudaStream_t stream) { runAlternative(static_cast<size_t>(a), *call, stream, LaunchOrder::Serial); },
        *call);
    cache.store(key, *choice);
    choices_[a] = choice;
  }
  if (choice && !choice->vendor) return false;
  vendorCalls_[a] = std::move(call);
  return true;
}

void GpuPlan::releaseVendorResources() {
  for (std::unique_ptr<PreparedVendorCall>& call : vendorCalls_) call.reset();
  if (code_.vendorStaging() >= 0) addresses_[code_.vendorStaging()] = nullptr;
  if (code_.vendorInput() >= 0) addresses_[code_.vendorInput()] = nullptr;
  epilogueArguments_.clear();
  preludeArguments_.clear();
  vendorStaging_ = DeviceBuffer();
  vendorInput_ = DeviceBuffer();
  vendorWorkspace_ = DeviceBuffer();
  rebuildSteps();
}

size_t GpuPlan::vendorCallsChosen() const {
  return std::ranges::count_if(vendorCalls_, [](const auto& call) { return call != nullptr; });
}

std::optional<VendorChoice> GpuPlan::vendorChoice(int planKernel) const {
  for (size_t a = 0; a < code_.vendorAlternatives.size(); ++a)
    if (code_.vendorAlternatives[a].planKernel == planKernel) return choices_[a];
  return std::nullopt;
}

int64_t GpuPlan::scratchBytes() const {
  int64_t bytes = static_cast<int64_t>(vendorStaging_.size() + vendorInput_.size() + vendorWorkspace_.size());
  for (size_t i = 0; i < code_.scratchBytes.size(); ++i)
    if (!code_.forVendorCalls(static_cast<int>(code_.numPlanBuffers + i))) bytes += code_.scratchBytes[i];
  return bytes;
}

std::vector<GpuPlan::KernelOwner> GpuPlan::owners(const std::vector<LaunchTiming>& timed) const {
  std::vector<KernelOwner> owners;
  if (steps_.empty()) return owners;
  size_t s = 0; // the step whose kernel comes next
  for (const LaunchTiming& t : timed) {
    // Past the last step (a timing that does not match this plan's steps):
    // charge the last one rather than lose the time.
    const Step& step = steps_[std::min(s, steps_.size() - 1)];
    const int planKernel = code_.launches[step.launch].planKernel;
    if (step.alternative < 0) {
      owners.push_back({planKernel, code_.launches[step.launch].what});
      ++s;
      continue;
    }
    const VendorAlternative& alternative = code_.vendorAlternatives[step.alternative];
    if (alternative.prelude && t.name == alternative.prelude->entry) {
      owners.push_back({planKernel, "its input, staged for " + describeVendorCall(alternative.call)});
    } else if (t.name == alternative.epilogue.entry) {
      owners.push_back({planKernel, "its epilogue after " + describeVendorCall(alternative.call)});
      ++s;
    } else {
      owners.push_back({planKernel, fmt::format("{} ({})", describeVendorCall(alternative.call), t.name)});
    }
  }
  return owners;
}

TimingResult GpuPlan::time(const TimerOptions& options) {
  KernelTimer timer(options);
  return timer.time([&](cudaStream_t stream) { enqueue(stream); });
}

} // namespace tcx::gpu
