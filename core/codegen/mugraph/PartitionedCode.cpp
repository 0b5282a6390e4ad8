#include "codegen/mugraph/PartitionedCode.h"

#include "codegen/CudaTypes.h"
#include "codegen/mugraph/IndexCode.h"
#include "codegen/mugraph/SharedMemoryPlan.h"
#include "mugraph/LoopPhase.h"
#include "mugraph/Partition.h"
#include "support/Error.h"

#include <fmt/format.h>
#include <map>

namespace tcx::mugraphcuda {

using mugraph::Level;
using mugraph::OpType;

namespace {

// Emits one partitioned graph. The block and thread levels differ only in
// who runs an operator's loop (all of the block's threads, strided by
// kBlockThreads, or one thread alone), where tensors live (shared memory or
// registers), and where grid indices come from (blockIdx, or the thread's
// index in the thread graph's block dims).
class PartitionedEmitter {
public:
  PartitionedEmitter(const mugraph::PartitionedGraph& graph, const ParentTensors& inputs, const ParentTensors& outputs)
      : graph_(graph), inputs_(inputs), outputs_(outputs), block_(graph.level() == Level::Block),
        prefix_(block_ ? "s" : "r") {
    for (size_t i = 0; i < graph.gridDims().size(); ++i) gridNames_.push_back(fmt::format("{}g{}", prefix_, i));
    for (size_t i = 0; i < graph.forLoopDims().size(); ++i) loopNames_.push_back(fmt::format("{}l{}", prefix_, i));
  }

  BlockKernelBody emit() {
    if (block_) {
      plan_ = planSharedMemory(graph_);
      static constexpr const char* kBlockIdx[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z"};
      for (size_t i = 0; i < gridNames_.size(); ++i)
        line(fmt::format("const int {} = {};", gridNames_[i], kBlockIdx[i]));
      emitPartition();
      return {code_, plan_.bytes};
    }
    // Each thread takes thread-graph indices strided by the block's size.
    line(fmt::format("for (int tp = threadIdx.x; tp < {}; tp += {}) {{", graph_.numPartitions(), kBlockThreads));
    ++depth_;
    std::vector<int64_t> strides = contiguousStrides(graph_.gridDims());
    for (size_t i = 0; i < gridNames_.size(); ++i)
      line(fmt::format("const int {} = tp / {} % {};", gridNames_[i], strides[i], graph_.gridDims()[i]));
    emitPartition();
    --depth_;
    line("}");
    return {code_, 0};
  }

private:
  void line(const std::string& text) { code_ += indented(text, depth_); }

  // A loop over `n` elements with index i: the block's threads share it, or one thread runs it.
  void loop(int64_t n, const std::string& body) {
    line(block_ ? fmt::format("for (int i = threadIdx.x; i < {}; i += {}) {{", n, kBlockThreads)
                : fmt::format("for (int i = 0; i < {}; ++i) {{", n));
    code_ += indented(body, depth_ + 1);
    line("}");
  }

  void barrier() {
    if (block_) line("__syncthreads();");
  }

  // A tensor's storage: shared memory at its planned offset, or a register array.
  Slot declare(const std::string& name, DType dtype, int64_t elements, int64_t offset) {
    if (block_)
      line(fmt::format("{0}* {1} = reinterpret_cast<{0}*>(smem + {2});", cudaStorageType(dtype), name, offset));
    else
      line(fmt::format("float {}[{}];", name, elements));
    return {name, false};
  }

  void emitPartition() {
    const std::vector<mugraph::Operator>& ops = graph_.ops();
    std::vector<int> accumulators = graph_.outputAccumulators();
    for (size_t k = 0; k < accumulators.size(); ++k) {
      int64_t n = numElements(accumulatorBlockShape(graph_, ops[accumulators[k]]));
      accumulators_.push_back(
          declare(fmt::format("{}acc{}", prefix_, k), DType::F32, n, block_ ? plan_.accumulatorOffsets[k] : 0));
      loop(n, fmt::format("{}[i] = 0.f;", accumulators_.back().name));
      accumulatorIndex_[accumulators[k]] = k;
    }
    slots_.resize(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
      for (size_t j = 0; j < ops[i].outputs.size(); ++j)
        if (block_ ? plan_.offsets[i][j] >= 0 : needsStorage(ops[i].type)) {
          const mugraph::TensorDesc& t = ops[i].outputs[j];
          bool summed = mugraph::isForLoopAccumulation(ops[i].type); // in float, like the accumulators
          slots_[i].push_back(declare(fmt::format("{}{}_{}", prefix_, i, j), summed ? DType::F32 : t.dtype,
                                      numElements(t.shape), block_ ? plan_.offsets[i][j] : 0));
          if (summed) loop(numElements(t.shape), fmt::format("{}[i] = 0.f;", slots_[i].back().name));
        } else {
          slots_[i].emplace_back();
        }
    barrier();
    // Loop-invariant operators run before the loop, the Body in it, and the
    // operators on for-loop accumulations after it (LoopPhase.h).
    const std::vector<mugraph::LoopPhase> phases = mugraph::loopPhases(graph_);
    auto emitPhase = [&](mugraph::LoopPhase phase) {
      for (int i : schedule(graph_))
        if (mugraph::runsIn(ops[i], phases[i]) == phase) emitOperator(i);
    };
    emitPhase(mugraph::LoopPhase::Invariant);
    for (size_t d = 0; d < loopNames_.size(); ++d) {
      line(fmt::format("for (int {0} = 0; {0} < {1}; ++{0}) {{", loopNames_[d], graph_.forLoopDims()[d]));
      ++depth_;
    }
    emitPhase(mugraph::LoopPhase::Body);
    for (size_t d = 0; d < loopNames_.size(); ++d) {
      --depth_;
      line("}");
    }
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].type == OpType::ForLoopRms) emitRmsFinish(ops[i], slots_[i][0]);
    emitPhase(mugraph::LoopPhase::After);
    for (size_t k = 0; k < accumulators.size(); ++k) emitWriteBack(ops[accumulators[k]], k);
  }

  void emitOperator(int index) {
    const mugraph::Operator& op = graph_.op(index);
    std::vector<Slot> operands;
    std::vector<Shape> shapes;
    for (mugraph::TensorRef t : op.inputs) {
      operands.push_back(slots_[t.op][t.output]);
      shapes.push_back(graph_.desc(t).shape);
    }
    Slot& out = slots_[index][0];
    switch (op.type) {
    case OpType::Reshape: out = operands[0]; return;
    case OpType::Constant: out = {cudaLiteral(op.value, DType::F32), true}; return;
    case OpType::InputIterator: emitIterator(op, out); break;
    case OpType::OutputAccumulator: emitAccumulate(op, operands[0], accumulatorIndex_.at(index)); break;
    case OpType::ForLoopSum:
      loop(numElements(op.outputs[0].shape), fmt::format("{}[i] += {};", out.name, operands[0].read("i")));
      break;
    case OpType::ForLoopRms: emitRmsAccumulate(operands[0], shapes[0], out); break;
    case OpType::GraphDefined: {
      ParentTensors in{operands, shapes}, outs{slots_[index], {}};
      for (const mugraph::TensorDesc& t : op.outputs) outs.shapes.push_back(t.shape);
      code_ += indented(PartitionedEmitter(*op.body, in, outs).emit().code, depth_);
      break;
    }
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
    case OpType::Repeat:
      loop(numElements(op.outputs[0].shape),
           elementValue(op, operands, shapes, op.outputs[0].shape, "i") + out.write("i", "v"));
      break;
    case OpType::Input: raise(ErrorKind::Internal, "Input in a {} graph", mugraph::levelName(graph_.level()));
    }
    barrier();
  }

  // Copies the chunk the grid and for-loop indices select (imap, then fmap),
  // as the interpreter's runPartitioned slices it.
  void emitIterator(const mugraph::Operator& op, Slot& out) {
    const Slot& parent = inputs_.slots[op.inputIndex];
    if (parent.scalar) {
      out = parent;
      return;
    }
    const Shape& whole = inputs_.shapes[op.inputIndex];
    const Shape& chunk = op.outputs[0].shape;
    Shape blockChunk = mugraph::splitShape(whole, graph_.gridDims(), op.imap, true, "imap");
    std::vector<int64_t> strides = contiguousStrides(whole);
    std::string at = sumOf({chunkOffsetExpr(blockChunk, graph_.gridDims(), op.imap, gridNames_, strides),
                            chunkOffsetExpr(chunk, graph_.forLoopDims(), op.fmap, loopNames_, strides),
                            boxOffset("i", chunk, whole)});
    loop(numElements(chunk), out.write("i", parent.read(at)));
  }

  // Adds x into the block's accumulator at the chunk fmap selects: a place
  // along data dims, the same place (a sum) along φ.
  void emitAccumulate(const mugraph::Operator& op, const Slot& x, size_t k) {
    const Shape& xShape = graph_.desc(op.inputs[0]).shape;
    Shape blockShape = accumulatorBlockShape(graph_, op);
    std::string at =
        sumOf({chunkOffsetExpr(xShape, graph_.forLoopDims(), op.fmap, loopNames_, contiguousStrides(blockShape)),
               boxOffset("i", xShape, blockShape)});
    loop(numElements(xShape), fmt::format("{}[{}] += {};", accumulators_[k].name, at, x.read("i")));
  }

  // Adds each row's sum of squares into the ForLoopRms buffer `out`.
  void emitRmsAccumulate(const Slot& x, const Shape& xShape, const Slot& out) {
    int64_t n = xShape.back();
    loop(numElements(xShape) / n,
         fmt::format("float s = 0.f;\nfor (int j = 0; j < {0}; ++j) {{\n  float a = {1};\n  s += a * a;\n}}\n"
                     "{2}[i] += s;",
                     n, x.read(fmt::format("i * {} + j", n)), out.name));
  }

  // Turns a ForLoopRms buffer's sums of squares into sqrt(mean + epsilon).
  void emitRmsFinish(const mugraph::Operator& op, const Slot& out) {
    int64_t count = mugraph::rmsCount(graph_, op);
    loop(numElements(op.outputs[0].shape),
         fmt::format("{0}[i] = sqrtf({0}[i] / {1} + {2});", out.name,
                     cudaLiteral(static_cast<double>(count), DType::F32), cudaLiteral(op.value, DType::F32)));
    barrier();
  }

  // Stores the block's accumulator at the chunk omap selects in the parent's
  // output: every block owns its chunk (omap has no φ), so no atomics.
  void emitWriteBack(const mugraph::Operator& op, size_t k) {
    Shape blockShape = accumulatorBlockShape(graph_, op);
    const Shape& whole = outputs_.shapes[k];
    std::string at =
        sumOf({chunkOffsetExpr(blockShape, graph_.gridDims(), op.omap, gridNames_, contiguousStrides(whole)),
               boxOffset("i", blockShape, whole)});
    loop(numElements(blockShape), outputs_.slots[k].write(at, fmt::format("{}[i]", accumulators_[k].name)));
  }

  const mugraph::PartitionedGraph& graph_;
  const ParentTensors& inputs_;
  const ParentTensors& outputs_;
  bool block_;
  std::string prefix_;
  std::vector<std::string> gridNames_, loopNames_;
  SharedMemoryPlan plan_;
  std::vector<std::vector<Slot>> slots_; // per operator, per output
  std::vector<Slot> accumulators_;
  std::map<int, size_t> accumulatorIndex_; // output accumulator operator -> its index in accumulators_
  std::string code_;
  int depth_ = 0;
};

} // namespace

BlockKernelBody emitBlockGraph(const mugraph::PartitionedGraph& body, const ParentTensors& inputs,
                               const ParentTensors& outputs) {
  TCX_CHECK(body.level() == Level::Block, ErrorKind::Internal, "emitBlockGraph takes a block graph, got a {} graph",
            mugraph::levelName(body.level()));
  return PartitionedEmitter(body, inputs, outputs).emit();
}

} // namespace tcx::mugraphcuda
