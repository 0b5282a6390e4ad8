#include "codegen/mugraph/MuGraphCuda.h"

#include "codegen/CudaTypes.h"
#include "codegen/mugraph/PartitionedCode.h"
#include "support/Error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

namespace tcx {

using mugraph::OpType;
using mugraph::TensorRef;
using mugraphcuda::ParentTensors;
using mugraphcuda::Slot;

namespace {

constexpr unsigned kElementThreads = 256;

// ld/st convert between storage types and float, so that generated code
// reads and writes every tensor alike (ElementCode.h).
constexpr const char* kPrelude = R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ float ld(float x) { return x; }
__device__ __forceinline__ float ld(__half x) { return __half2float(x); }
__device__ __forceinline__ float ld(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ void st(float& d, float v) { d = v; }
__device__ __forceinline__ void st(__half& d, float v) { d = __float2half(v); }
__device__ __forceinline__ void st(__nv_bfloat16& d, float v) { d = __float2bfloat16(v); }
)";

void checkSupported(const mugraph::TensorDesc& t) {
  TCX_CHECK(t.dtype == DType::F32 || t.dtype == DType::F16 || t.dtype == DType::BF16, ErrorKind::Unsupported,
            "μGraph CUDA supports f32, f16 and bf16 tensors, not {}", dtypeName(t.dtype));
  TCX_CHECK(numElements(t.shape) < std::numeric_limits<int>::max(), ErrorKind::Unsupported,
            "a tensor of [{}] has too many elements for int indices", fmt::join(t.shape, ","));
}

class Generator {
public:
  explicit Generator(const mugraph::KernelGraph& graph) : graph_(graph) {}

  MuGraphCuda run() {
    const std::vector<mugraph::Operator>& ops = graph_.ops();
    slots_.resize(ops.size());
    buffersOf_.resize(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      for (const mugraph::TensorDesc& t : ops[i].outputs) checkSupported(t);
      define(static_cast<int>(i));
    }
    for (TensorRef t : graph_.outputs()) {
      int b = buffersOf_[t.op][t.output];
      TCX_CHECK(b >= 0, ErrorKind::Unsupported, "output {} of μGraph '{}' is a Constant, which has no buffer",
                out_.outputBuffers.size(), graph_.name());
      if (out_.buffers[b].role == MuGraphBuffer::Role::Intermediate) out_.buffers[b].role = MuGraphBuffer::Role::Output;
      out_.outputBuffers.push_back(b);
    }
    out_.source = fmt::format("{}\nstruct Buffers {{ void* p[{}]; }};\n{}", kPrelude,
                              std::max<size_t>(out_.buffers.size(), 1), kernels_);
    return std::move(out_);
  }

private:
  void define(int index) {
    const mugraph::Operator& op = graph_.op(index);
    switch (op.type) {
    case OpType::Input: out_.inputBuffers.push_back(addBuffer(index, 0, MuGraphBuffer::Role::Input)); return;
    case OpType::Constant:
      slots_[index] = {{cudaLiteral(op.value, DType::F32), true}};
      buffersOf_[index] = {-1};
      return;
    case OpType::Reshape: // a view: the same buffer, read as the new shape
      slots_[index] = {slots_[op.inputs[0].op][op.inputs[0].output]};
      buffersOf_[index] = {buffersOf_[op.inputs[0].op][op.inputs[0].output]};
      return;
    case OpType::GraphDefined: defineBlockKernel(index); return;
    case OpType::Matmul:
    case OpType::ConcatMatmul:
    case OpType::Sum:
    case OpType::EwAdd:
    case OpType::EwMul:
    case OpType::EwDiv:
    case OpType::EwExp:
    case OpType::Sqrt:
    case OpType::Square:
    case OpType::SiLU:
    case OpType::RMSNorm:
    case OpType::Repeat: defineElementKernel(index); return;
    case OpType::InputIterator:
    case OpType::OutputAccumulator:
    case OpType::ForLoopSum:
    case OpType::ForLoopRms: break; // shape inference keeps these out of kernel graphs
    }
    raise(ErrorKind::Internal, "{} is not a kernel-level operator", mugraph::opTypeName(op.type));
  }

  int addBuffer(int op, int output, MuGraphBuffer::Role role) {
    const mugraph::TensorDesc& t = graph_.op(op).outputs[output];
    int b = static_cast<int>(out_.buffers.size());
    out_.buffers.push_back({role, {op, output}, t, numElements(t.shape) * int64_t(dtypeSize(t.dtype))});
    slots_[op].push_back({fmt::format("buf{}", b), false});
    buffersOf_[op].push_back(b);
    return b;
  }

  // The launch of operator `index`, reading its operands' buffers and
  // writing its outputs', without code yet.
  MuGraphLaunch launchOf(int index) {
    MuGraphLaunch l;
    l.op = index;
    l.entry = fmt::format("mg{}_{}", index, mugraph::opTypeName(graph_.op(index).type));
    for (TensorRef t : graph_.op(index).inputs) {
      int b = buffersOf_[t.op][t.output];
      if (b >= 0 && std::find(l.reads.begin(), l.reads.end(), b) == l.reads.end()) l.reads.push_back(b);
    }
    for (size_t j = 0; j < graph_.op(index).outputs.size(); ++j)
      l.writes.push_back(addBuffer(index, static_cast<int>(j), MuGraphBuffer::Role::Intermediate));
    return l;
  }

  // The kernel around `body`: the buffer pointers it uses, typed.
  void addKernel(MuGraphLaunch launch, const std::string& body, bool shared) {
    std::string code = fmt::format("\nextern \"C\" __global__ void __launch_bounds__({}) {}(Buffers b) {{\n",
                                   launch.block[0], launch.entry);
    auto pointer = [&](int b, const char* qualifier) {
      const char* type = cudaStorageType(out_.buffers[b].desc.dtype);
      code += fmt::format("  {0}{1}* __restrict__ buf{2} = static_cast<{0}{1}*>(b.p[{2}]);\n", qualifier, type, b);
    };
    for (int b : launch.reads) pointer(b, "const ");
    for (int b : launch.writes) pointer(b, "");
    if (shared) code += "  extern __shared__ __align__(16) unsigned char smem[];\n";
    kernels_ += code + mugraphcuda::indented(body, 1) + "}\n";
    out_.launches.push_back(std::move(launch));
  }

  // One thread per output element, grid-stride.
  void defineElementKernel(int index) {
    const mugraph::Operator& op = graph_.op(index);
    std::vector<Slot> operands;
    std::vector<Shape> shapes;
    for (TensorRef t : op.inputs) {
      operands.push_back(slots_[t.op][t.output]);
      shapes.push_back(graph_.desc(t).shape);
    }
    MuGraphLaunch l = launchOf(index);
    int64_t n = numElements(op.outputs[0].shape);
    l.grid[0] = static_cast<unsigned>(std::max<int64_t>((n + kElementThreads - 1) / kElementThreads, 1));
    l.block[0] = kElementThreads;
    std::string element =
        mugraphcuda::elementValue(op, operands, shapes, op.outputs[0].shape, "i") + slots_[index][0].write("i", "v");
    std::string body =
        fmt::format("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < {}; i += gridDim.x * blockDim.x) {{\n{}}}",
                    n, mugraphcuda::indented(element, 1));
    addKernel(std::move(l), body, false);
  }

  // One thread block per grid index of the block graph (Mirage §2).
  void defineBlockKernel(int index) {
    const mugraph::Operator& op = graph_.op(index);
    const mugraph::PartitionedGraph& body = *op.body;
    TCX_CHECK(body.gridDims().size() <= 3, ErrorKind::Unsupported, "a grid of {} dims", body.gridDims().size());
    ParentTensors inputs, outputs;
    for (TensorRef t : op.inputs) {
      inputs.slots.push_back(slots_[t.op][t.output]);
      inputs.shapes.push_back(graph_.desc(t).shape);
    }
    MuGraphLaunch l = launchOf(index);
    for (const mugraph::TensorDesc& t : op.outputs) outputs.shapes.push_back(t.shape);
    outputs.slots = slots_[index];
    for (size_t d = 0; d < body.gridDims().size(); ++d) {
      TCX_CHECK(body.gridDims()[d] <= (d == 0 ? std::numeric_limits<int>::max() : 65535), ErrorKind::Unsupported,
                "grid dim {} of {} is more than CUDA allows", d, body.gridDims()[d]);
      l.grid[d] = static_cast<unsigned>(body.gridDims()[d]);
    }
    l.block[0] = mugraphcuda::kBlockThreads;
    mugraphcuda::BlockKernelBody code = mugraphcuda::emitBlockGraph(body, inputs, outputs);
    TCX_CHECK(code.sharedBytes <= kMaxSharedBytesPerBlock, ErrorKind::Unsupported,
              "the block graph of operator {} needs {} bytes of shared memory per block, more than {}", index,
              code.sharedBytes, kMaxSharedBytesPerBlock);
    l.sharedBytes = static_cast<unsigned>(code.sharedBytes);
    addKernel(std::move(l), code.code, true);
  }

  const mugraph::KernelGraph& graph_;
  std::vector<std::vector<Slot>> slots_;    // per operator, per output
  std::vector<std::vector<int>> buffersOf_; // per operator, per output; -1 for a literal
  std::string kernels_;
  MuGraphCuda out_;
};

} // namespace

MuGraphCuda generateMuGraphCuda(const mugraph::KernelGraph& graph) { return Generator(graph).run(); }

} // namespace tcx
