#include "profiler/GpuPlan.h"

#include "profiler/CudaError.h"
#include "profiler/CudaModule.h"
#include "profiler/GpuDevice.h"

#include <cstring>

namespace tcx::gpu {

GpuPlan::GpuPlan(const ExecPlan& plan, GeneratedPlan code, NvrtcCompiler& compiler)
    : plan_(plan), code_(std::move(code)) {
  requireGpu();
  compiled_ = compiler.compile(code_.source);
  module_ = std::make_unique<CudaModule>(*compiled_.cubin);
  for (const GeneratedLaunch& l : code_.launches) kernels_.push_back(module_->kernel(l.entry));

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

void GpuPlan::enqueue(cudaStream_t stream) {
  // Every kernel takes the buffer table by value (GeneratedPlan.h).
  void* args[] = {addresses_.data()};
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const GeneratedLaunch& l = code_.launches[i];
    module_->launch(kernels_[i], dim3(l.grid[0], l.grid[1], l.grid[2]), dim3(l.block[0], l.block[1], l.block[2]),
                    l.sharedBytes, args, stream);
  }
}

std::vector<Tensor> GpuPlan::run() {
  enqueue(nullptr);
  checkCuda(cudaDeviceSynchronize(), "running the plan");
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
