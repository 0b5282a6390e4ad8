#include "profiler/GpuPlan.h"

#include "profiler/CudaError.h"
#include "profiler/CudaModule.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelBlame.h"
#include "profiler/PlanModules.h"

#include <fmt/format.h>

#include <cstring>

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
    owned_.emplace_back(static_cast<size_t>(code_.scratchBytes[i]));
    addresses_[code_.numPlanBuffers + i] = owned_.back().data();
    if (code_.scratchZeroed[i]) owned_.back().memset(0);
  }
  arguments_.assign(code_.launches.size() * code_.bufferSlots, nullptr);
  for (size_t l = 0; l < code_.launches.size(); ++l) {
    const std::vector<BufferBinding>& bound = code_.launches[l].buffers;
    TCX_CHECK(bound.size() <= code_.bufferSlots, ErrorKind::Internal, "launch {} binds {} buffers, Buffers holds {}",
              l, bound.size(), code_.bufferSlots);
    for (size_t s = 0; s < bound.size(); ++s)
      arguments_[l * code_.bufferSlots + s] = static_cast<char*>(addresses_.at(bound[s].buffer)) + bound[s].byteOffset;
  }
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

void GpuPlan::launch(size_t i, cudaStream_t stream) {
  // Every kernel takes its buffers' addresses by value (GeneratedPlan.h).
  void* args[] = {&arguments_[i * code_.bufferSlots]};
  modules_->launch(i, args, stream);
}

void GpuPlan::enqueue(cudaStream_t stream) {
  for (size_t i = 0; i < code_.launches.size(); ++i) launch(i, stream);
}

std::vector<Tensor> GpuPlan::run() {
  // One launch at a time, so that a fault names its kernel: an error from
  // an asynchronous launch only surfaces at the next synchronisation, and
  // after a fault the context is lost, so it cannot be found by rerunning.
  for (size_t i = 0; i < code_.launches.size(); ++i) {
    launch(i, nullptr);
    const GeneratedLaunch& l = code_.launches[i];
    try {
      checkCuda(cudaDeviceSynchronize(), fmt::format("launch {} of {} ({}, entry {})", i + 1, code_.launches.size(),
                                                     l.what, l.entry));
    } catch (const Error& e) {
      throw e.withContext(describePlanKernel(plan_.kernels[l.planKernel]));
    }
  }
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

TimingResult GpuPlan::time(const TimerOptions& options) {
  KernelTimer timer(options);
  return timer.time([&](cudaStream_t stream) { enqueue(stream); });
}

} // namespace tcx::gpu
