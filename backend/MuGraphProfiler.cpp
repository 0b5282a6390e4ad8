// μGraphs compiled with NVRTC, loaded with the CUDA runtime and timed with
// CUPTI through profiler/, like the plans of GpuBackend.cpp.
#include "MuGraphProfiler.h"

#include "codegen/mugraph/MuGraphCuda.h"
#include "mugraph/FloatDomain.h"
#include "profiler/CudaError.h"
#include "profiler/CudaModule.h"
#include "profiler/DeviceBuffer.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelTimer.h"
#include "profiler/Nvrtc.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

namespace tcx::backend {

namespace {

using HostTensor = mugraph::DenseTensor<double>;

// `values` in the storage of `dtype` (f32, f16 or bf16: MuGraphCuda supports no other).
std::vector<char> encode(const std::vector<double>& values, DType dtype) {
  std::vector<char> bytes(values.size() * dtypeSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    float f = static_cast<float>(values[i]);
    if (dtype == DType::F32) {
      std::memcpy(&bytes[i * 4], &f, 4);
      continue;
    }
    uint16_t bits = dtype == DType::F16 ? Half::fromFloat(f) : BFloat16::fromFloat(f);
    std::memcpy(&bytes[i * 2], &bits, 2);
  }
  return bytes;
}

std::vector<double> decode(const std::vector<char>& bytes, DType dtype) {
  std::vector<double> values(bytes.size() / dtypeSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t bits = 0;
    float f = 0;
    if (dtype == DType::F32) {
      std::memcpy(&f, &bytes[i * 4], 4);
    } else {
      std::memcpy(&bits, &bytes[i * 2], 2);
      f = dtype == DType::F16 ? Half::toFloat(bits) : std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
    }
    values[i] = f;
  }
  return values;
}

// Random inputs, already rounded to their dtypes, so that a comparison
// measures the kernels and not the inputs' rounding.
std::vector<HostTensor> roundedInputs(const mugraph::KernelGraph& graph, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs = mugraph::randomInputs(mugraph::FloatDomain{}, graph, rng);
  std::vector<int> ops = graph.inputOps();
  for (size_t i = 0; i < inputs.size(); ++i) {
    DType dtype = graph.op(ops[i]).outputs[0].dtype;
    inputs[i].data = decode(encode(inputs[i].data, dtype), dtype);
  }
  return inputs;
}

// A μGraph's module loaded and its buffers allocated, one per MuGraphBuffer.
class MuGraphOnGpu {
public:
  MuGraphOnGpu(const mugraph::KernelGraph& graph, gpu::NvrtcCompiler& compiler) : code_(generateMuGraphCuda(graph)) {
    gpu::requireGpu();
    compiled_ = compiler.compile(code_.source);
    module_ = std::make_unique<gpu::CudaModule>(*compiled_.cubin);
    for (const MuGraphLaunch& l : code_.launches) kernels_.push_back(module_->kernel(l.entry));
    for (const MuGraphBuffer& b : code_.buffers) {
      buffers_.emplace_back(static_cast<size_t>(std::max<int64_t>(b.bytes, 1)));
      addresses_.push_back(buffers_.back().data());
    }
  }

  void setInputs(const std::vector<HostTensor>& inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      int b = code_.inputBuffers[i];
      std::vector<char> bytes = encode(inputs[i].data, code_.buffers[b].desc.dtype);
      buffers_[b].upload(bytes.data(), bytes.size());
    }
  }

  // All bits set (NaN) in every computed buffer, so an unwritten element shows.
  void poison() {
    for (size_t b = 0; b < buffers_.size(); ++b)
      if (code_.buffers[b].role != MuGraphBuffer::Role::Input) buffers_[b].memset(0xff);
  }

  void enqueue(cudaStream_t stream) {
    void* args[] = {addresses_.data()}; // every kernel takes the buffer table by value
    for (size_t i = 0; i < kernels_.size(); ++i) {
      const MuGraphLaunch& l = code_.launches[i];
      module_->launch(kernels_[i], dim3(l.grid[0], l.grid[1], l.grid[2]), dim3(l.block[0], l.block[1], l.block[2]),
                      l.sharedBytes, args, stream);
    }
  }

  std::vector<std::vector<double>> run() {
    enqueue(nullptr);
    gpu::checkCuda(cudaDeviceSynchronize(), "running the μGraph");
    std::vector<std::vector<double>> outputs;
    for (int b : code_.outputBuffers) {
      std::vector<char> bytes(static_cast<size_t>(code_.buffers[b].bytes));
      buffers_[b].download(bytes.data(), bytes.size());
      outputs.push_back(decode(bytes, code_.buffers[b].desc.dtype));
    }
    return outputs;
  }

  const MuGraphCuda& code() const { return code_; }
  const gpu::CompileResult& compiled() const { return compiled_; }

private:
  MuGraphCuda code_;
  gpu::CompileResult compiled_;
  std::unique_ptr<gpu::CudaModule> module_;
  std::vector<cudaKernel_t> kernels_; // per launch
  std::vector<gpu::DeviceBuffer> buffers_;
  std::vector<void*> addresses_; // per buffer
};

double scaledError(const std::vector<double>& got, const std::vector<double>& ref) {
  double scale = 0, worst = 0;
  for (double r : ref) scale = std::max(scale, std::abs(r));
  for (size_t i = 0; i < got.size(); ++i) {
    double diff = std::abs(got[i] - ref[i]);
    if (!std::isfinite(diff)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, diff);
  }
  return scale > 0 ? worst / scale : worst;
}

} // namespace

MuGraphMeasurement measureMuGraph(const mugraph::KernelGraph& graph, const MuGraphMeasureOptions& options) {
  gpu::NvrtcCompiler compiler;
  MuGraphOnGpu onGpu(graph, compiler);
  onGpu.setInputs(roundedInputs(graph, options.seed));
  gpu::KernelTimer timer({.warmup = options.warmup, .repetitions = options.repetitions, .flushL2 = options.flushL2});
  gpu::TimingResult t = timer.time([&](cudaStream_t stream) { onGpu.enqueue(stream); });
  MuGraphMeasurement m{.medianUs = t.total.medianUs,
                       .launches = {},
                       .timingSource = t.source,
                       .device = t.device,
                       .compileMs = onGpu.compiled().compileMs};
  for (size_t i = 0; i < t.launches.size(); ++i)
    m.launches.push_back({onGpu.code().launches[i].entry, t.launches[i].stats.medianUs});
  return m;
}

MuGraphCheck checkMuGraph(const mugraph::KernelGraph& graph, const MuGraphMeasureOptions& options) {
  gpu::NvrtcCompiler compiler;
  MuGraphOnGpu onGpu(graph, compiler);
  std::vector<HostTensor> inputs = roundedInputs(graph, options.seed);
  mugraph::FloatDomain domain;
  std::vector<HostTensor> reference = mugraph::Interpreter<mugraph::FloatDomain>(domain).run(graph, inputs);
  onGpu.setInputs(inputs);
  onGpu.poison();
  std::vector<std::vector<double>> got = onGpu.run();
  MuGraphCheck check;
  for (size_t i = 0; i < got.size(); ++i) {
    check.outputErrors.push_back(scaledError(got[i], reference[i].data));
    check.maxRelativeError = std::max(check.maxRelativeError, check.outputErrors.back());
  }
  return check;
}

} // namespace tcx::backend
