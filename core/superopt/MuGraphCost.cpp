#include "superopt/MuGraphCost.h"

#include "codegen/mugraph/PartitionedCode.h"
#include "mugraph/LoopPhase.h"
#include "mugraph/Validate.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx::superopt {

using namespace mugraph;

namespace {

// exp and sqrt go through the special-function units at a fraction of the
// FMA rate; counting a few flops per element stands in for that.
constexpr double kTranscendentalFlops = 4;
// Tensor-core MMA tiles are 16 wide: a smaller m, n or k pads the tile and
// wastes most of it, so such products run as plain FMAs.
constexpr int64_t kMinTensorCoreTile = 16;
// Assumption: L2 hits stream at about 2.5x HBM bandwidth on Hopper-class GPUs
// (NVIDIA quotes no peak; microbenchmarks measure 2-3x).
constexpr double kL2OverHbm = 2.5;
// Hardware limit on resident thread blocks per SM (Hopper and Ampere).
constexpr int64_t kMaxBlocksPerSm = 32;
// Cycles one thread of the generated code (codegen/mugraph) spends per step
// of its serial work (stepsPerElement below). Fitted to 80 H100 timings of
// MHA candidates and the reference, whose bytes and flops are nearly equal
// and whose times differ 9-fold (docs/superopt.md, "The serial path"):
// - a pre-defined operator's step reads device memory, mostly a line L1
//   already holds (a row read in order, or one element all threads share);
// - a block's input iterator's step fetches a new line from L2 or HBM,
//   overlapped with a few others of the unrolled copy;
// - a step on shared memory or registers;
// - the barrier after each block operator.
constexpr double kElementStepCycles = 115;
constexpr double kDeviceStepCycles = 200;
constexpr double kLocalStepCycles = 20;
constexpr double kBarrierCycles = 50;

double bytesOf(const TensorDesc& d) {
  return static_cast<double>(numElements(d.shape)) * static_cast<double>(dtypeSize(d.dtype));
}

double elementsOf(const TensorDesc& d) { return static_cast<double>(numElements(d.shape)); }

struct Work {
  double tensorFlops = 0;
  double simtFlops = 0;
  double flops() const { return tensorFlops + simtFlops; }
  void add(const Work& w, double times) {
    tensorFlops += w.tensorFlops * times;
    simtFlops += w.simtFlops * times;
  }
};

// The serial path: the generated code gives each thread a chain of steps
// that it runs one after another, a reduction's whole length for each output
// element it computes. Bandwidth and flops do not see it, yet a block graph
// that sums a whole row in one thread, or a pre-defined Sum with one thread
// per row, takes that chain's time however few bytes it moves. A matmul's
// steps are its reduction length k, which its flops count as well.
double stepsPerElement(const OperatorGraph& g, const Operator& op) {
  auto last = [&](size_t i) { return static_cast<double>(g.desc(op.inputs[i]).shape.back()); };
  switch (op.type) {
  case OpType::Matmul: return last(0);
  case OpType::ConcatMatmul: return last(0) + last(1);
  case OpType::Sum: return static_cast<double>(op.group);
  case OpType::RMSNorm: return last(0) + 1; // the row's squares, then the division
  case OpType::ForLoopRms: return last(0);
  case OpType::Input:
  case OpType::Constant:
  case OpType::InputIterator:
  case OpType::OutputAccumulator:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::Repeat:
  case OpType::Reshape:
  case OpType::GraphDefined:
  case OpType::ForLoopSum: return 1;
  }
  return 1;
}

Work opWork(const OperatorGraph& g, const Operator& op);

// How many times one partition of `body` runs `op`: once per iteration when
// it runs in the loop's body (LoopPhase.h), else once.
double runsPerPartition(const PartitionedGraph& body, const Operator& op, LoopPhase phase) {
  return runsIn(op, phase) == LoopPhase::Body ? static_cast<double>(body.numIterations()) : 1;
}

// How many times all partitions of `body` run `op`.
double runs(const PartitionedGraph& body, const Operator& op, LoopPhase phase) {
  return static_cast<double>(body.numPartitions()) * runsPerPartition(body, op, phase);
}

Work bodyWork(const PartitionedGraph& body) {
  Work w;
  std::vector<LoopPhase> phases = loopPhases(body);
  for (size_t i = 0; i < body.ops().size(); ++i)
    w.add(opWork(body, body.ops()[i]), runs(body, body.ops()[i], phases[i]));
  return w;
}

// The operator table's arithmetic per element (OpInfo::work), priced: a
// transcendental as kTranscendentalFlops, a contraction on tensor cores
// when its dtype and tile allow.
Work opWork(const OperatorGraph& g, const Operator& op) {
  const ElementWork& work = opInfo(op.type).work;
  const TensorDesc& out = op.outputs.front();
  double elements = 0;
  switch (work.per) {
  case ElementWork::Per::Nothing: return {};
  case ElementWork::Per::Body: return bodyWork(*op.body);
  case ElementWork::Per::Output: elements = elementsOf(out); break;
  case ElementWork::Per::Operand: elements = elementsOf(g.desc(op.inputs[0])); break;
  case ElementWork::Per::LoopAccumulated:
    if (std::ranges::find(op.fmap, kReplica) == op.fmap.end()) return {};
    elements = elementsOf(g.desc(op.inputs[0]));
    break;
  case ElementWork::Per::ContractionStep: {
    double k = stepsPerElement(g, op);
    double flops = elementsOf(out) * k * work.arithmetic;
    const Shape& s = out.shape;
    bool bigTile = s.size() >= 2 && s[s.size() - 2] >= kMinTensorCoreTile && s.back() >= kMinTensorCoreTile &&
                   k >= kMinTensorCoreTile;
    DType dtype = g.desc(op.inputs[0]).dtype;
    bool tensorCore = bigTile && (dtype == DType::F16 || dtype == DType::BF16);
    return tensorCore ? Work{flops, 0} : Work{0, flops};
  }
  }
  return {0, elements * (work.arithmetic + kTranscendentalFlops * work.transcendental)};
}

double ceilDiv(double n, double d) { return std::ceil(n / d); }

// The elements an operator's loop runs over: an accumulator adds its operand.
double loopElements(const OperatorGraph& g, const Operator& op) {
  if (op.type == OpType::OutputAccumulator) return elementsOf(g.desc(op.inputs[0]));
  if (op.type == OpType::ForLoopRms) return elementsOf(g.desc(op.inputs[0])) / stepsPerElement(g, op);
  return elementsOf(op.outputs.front());
}

// Calls f(op, times) for each operator of `g` that emits code, with how many
// times one block or thread runs it: once per iteration in the loop's body.
template <class F>
void forEachEmitted(const PartitionedGraph& g, F f) {
  std::vector<LoopPhase> phases = loopPhases(g);
  for (size_t i = 0; i < g.ops().size(); ++i) {
    const Operator& op = g.ops()[i];
    if (op.type == OpType::Reshape || op.type == OpType::Constant) continue;
    f(op, runsPerPartition(g, op, phases[i]));
  }
}

// Cycles of one thread of a thread graph: each runs the whole graph for its
// partitions, one after another, every tensor in registers.
double threadGraphCycles(const PartitionedGraph& t) {
  double perPartition = 0;
  forEachEmitted(t, [&](const Operator& op, double times) {
    perPartition += times * loopElements(t, op) * stepsPerElement(t, op) * kLocalStepCycles;
  });
  return ceilDiv(static_cast<double>(t.numPartitions()), mugraphcuda::kBlockThreads) * perPartition;
}

// Cycles of one block of a block graph: its threads share each operator's
// loop, a barrier after each.
double blockPathCycles(const PartitionedGraph& block) {
  double cycles = 0;
  forEachEmitted(block, [&](const Operator& op, double times) {
    double step = op.type == OpType::GraphDefined
                      ? threadGraphCycles(*op.body)
                      : ceilDiv(loopElements(block, op), mugraphcuda::kBlockThreads) * stepsPerElement(block, op) *
                            (op.type == OpType::InputIterator ? kDeviceStepCycles : kLocalStepCycles);
    cycles += times * (step + kBarrierCycles);
  });
  return cycles;
}

double computeSeconds(const Work& w, const GpuPreset& p) {
  return w.tensorFlops / (p.tensorFlops16 * p.computeEfficiency) + w.simtFlops / p.simtFlops32;
}

// Bytes a graph-defined operator moves between device and shared memory.
// Device memory sees each input element once; every further read of it (a
// chunk replicated over grid or for-loop dims by φ) hits L2 when the whole
// input fits there.
struct Traffic {
  double hbm = 0;
  double l2 = 0;
};

Traffic blockTraffic(const PartitionedGraph& block, const GpuPreset& p) {
  Traffic t;
  auto replicas = [](const Shape& dims, const DimMap& map) {
    double r = 1;
    for (size_t d = 0; d < dims.size(); ++d)
      if (map[d] == kReplica) r *= static_cast<double>(dims[d]);
    return r;
  };
  std::vector<LoopPhase> phases = loopPhases(block);
  for (size_t i = 0; i < block.ops().size(); ++i) {
    const Operator& op = block.ops()[i];
    if (op.type == OpType::InputIterator) {
      // A loop-invariant chunk is loaded once, before the loop.
      bool invariant = phases[i] == LoopPhase::Invariant;
      double loads = bytesOf(op.outputs[0]) * runs(block, op, phases[i]);
      double loopReplicas = invariant ? 1 : replicas(block.forLoopDims(), op.fmap);
      double unique = loads / (replicas(block.gridDims(), op.imap) * loopReplicas);
      bool inL2 = bytesOf(block.inputs()[static_cast<size_t>(op.inputIndex)]) <= p.l2Bytes;
      t.hbm += unique;
      (inL2 ? t.l2 : t.hbm) += loads - unique;
    } else if (op.type == OpType::OutputAccumulator) {
      // omap has no φ, so the blocks' tiles tile the output exactly once.
      t.hbm += bytesOf(op.outputs[0]);
    }
  }
  return t;
}

// Blocks of a graph-defined operator's kernel resident on one SM at once:
// as many as its threads, its shared memory and the hardware allow.
int64_t blocksPerSm(const PartitionedGraph& block, const GpuPreset& p) {
  int64_t shared = sharedMemoryBytes(block);
  int64_t byThreads = p.maxThreadsPerSm / static_cast<int64_t>(mugraphcuda::kBlockThreads);
  int64_t byShared = shared > 0 ? p.sharedMemoryPerBlock / shared : kMaxBlocksPerSm;
  return std::clamp<int64_t>(std::min(byThreads, byShared), 1, kMaxBlocksPerSm);
}

// The fraction of the GPU a grid keeps busy. Within one wave, every SM that
// holds a block is assumed to reach its share of bandwidth and compute (a
// μGraph block keeps enough loads in flight; where it does not, its serial
// path bounds the kernel), so only a grid smaller than the SM count loses;
// over several waves the last, partial wave idles the rest of the slots.
double parallelEfficiency(const PartitionedGraph& block, const GpuPreset& p) {
  double blocks = static_cast<double>(block.numPartitions());
  double slots = static_cast<double>(p.smCount * blocksPerSm(block, p));
  if (blocks <= slots) return std::min(1.0, blocks / p.smCount);
  return blocks / (std::ceil(blocks / slots) * slots);
}

KernelCost kernelCost(const KernelGraph& g, int index, const GpuPreset& p) {
  const Operator& op = g.op(index);
  KernelCost k;
  k.op = index;
  Work work = opWork(g, op);
  k.flops = work.flops();
  double memory = 0, efficiency = 1, serial = 0;
  double hbmSpeed = p.hbmBytesPerSecond * p.bandwidthEfficiency;
  if (op.type == OpType::GraphDefined) {
    const PartitionedGraph& block = *op.body;
    Traffic t = blockTraffic(block, p);
    k.deviceBytes = t.hbm + t.l2;
    memory = t.hbm / hbmSpeed + t.l2 / (kL2OverHbm * hbmSpeed);
    efficiency = parallelEfficiency(block, p);
    double waves = ceilDiv(static_cast<double>(block.numPartitions()),
                           static_cast<double>(p.smCount * blocksPerSm(block, p)));
    serial = waves * blockPathCycles(block) / p.smClockHz;
    k.what = fmt::format("graph-defined {} blocks x {} iterations", fmt::join(block.gridDims(), "x"),
                         block.numIterations());
  } else {
    for (TensorRef t : op.inputs) k.deviceBytes += bytesOf(g.desc(t));
    for (const TensorDesc& d : op.outputs) k.deviceBytes += bytesOf(d);
    memory = k.deviceBytes / hbmSpeed;
    // One thread per output element, every step a load from device memory.
    double waves = ceilDiv(elementsOf(op.outputs.front()), static_cast<double>(p.smCount * p.maxThreadsPerSm));
    serial = waves * stepsPerElement(g, op) * kElementStepCycles / p.smClockHz;
    k.what = opTypeName(op.type);
  }
  double compute = computeSeconds(work, p);
  double throughput = std::max(memory, compute) / efficiency;
  double busy = std::max(throughput, serial);
  k.bound = p.launchSeconds > busy ? "launch"
            : serial > throughput  ? "serial"
            : memory >= compute    ? "memory"
                                   : "compute";
  k.micros = (p.launchSeconds + busy) * 1e6;
  return k;
}

} // namespace

namespace {
// Inputs and constants are already in device memory; a Reshape is a view.
bool launches(OpType type) { return type != OpType::Input && type != OpType::Constant && type != OpType::Reshape; }
} // namespace

KernelCount countKernels(const KernelGraph& graph) {
  KernelCount count;
  for (const Operator& op : graph.ops()) {
    count.launches += launches(op.type);
    count.graphDefined += op.type == OpType::GraphDefined;
  }
  return count;
}

MuGraphCost estimateCost(const KernelGraph& graph, const GpuPreset& preset) {
  MuGraphCost cost;
  for (size_t i = 0; i < graph.ops().size(); ++i) {
    if (!launches(graph.ops()[i].type)) continue;
    cost.kernels.push_back(kernelCost(graph, static_cast<int>(i), preset));
    cost.micros += cost.kernels.back().micros;
  }
  return cost;
}

} // namespace tcx::superopt
