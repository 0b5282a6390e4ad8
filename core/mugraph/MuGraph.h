#pragma once
// μGraphs (Mirage §2): a kernel graph whose graph-defined operators are block
// graphs, whose graph-defined operators are in turn thread graphs.
//
// Every level is an OperatorGraph: operators in topological order, each
// referring to earlier operators' outputs by (operator, output) index. The
// block and thread levels add a partition of the work (PartitionedGraph):
// grid (or thread-block) dimensions and for-loop dimensions, input iterators
// that slice parent inputs by imap/fmap, and output accumulators that
// assemble parent outputs by omap/fmap.
//
// Graphs are values: copying one copies a vector of small operators and
// shares nested bodies, which is what a search extending prefixes needs.

#include "mugraph/Operator.h"

#include <vector>

namespace tcx::mugraph {

class OperatorGraph {
public:
  Level level() const { return level_; }
  const std::vector<Operator>& ops() const { return ops_; }
  const Operator& op(int i) const { return ops_.at(static_cast<size_t>(i)); }
  const TensorDesc& desc(TensorRef t) const;

  // Appends `op` after inferring its outputs; raises ShapeInference (or
  // InvalidModel for a dangling reference or an op this level lacks) with the
  // reason. Returns its first output. The builders below call it.
  TensorRef append(Operator op);

  TensorRef constant(double value);
  TensorRef matmul(TensorRef x, TensorRef y);
  TensorRef concatMatmul(TensorRef w, TensorRef x, TensorRef y, TensorRef z);
  TensorRef sum(TensorRef x, int dim, int64_t group);
  TensorRef add(TensorRef x, TensorRef y);
  TensorRef mul(TensorRef x, TensorRef y);
  TensorRef div(TensorRef x, TensorRef y);
  TensorRef exp(TensorRef x);
  TensorRef sqrt(TensorRef x);
  TensorRef square(TensorRef x);
  TensorRef silu(TensorRef x);
  TensorRef rmsNorm(TensorRef x, double epsilon);
  TensorRef forLoopSum(TensorRef x);
  TensorRef forLoopRms(TensorRef x, double epsilon);
  TensorRef repeat(TensorRef x, Shape factors);
  TensorRef reshape(TensorRef x, Shape shape);
  // A graph-defined operator; one output per output accumulator of `body`.
  std::vector<TensorRef> graphDefined(std::shared_ptr<const PartitionedGraph> body, std::vector<TensorRef> inputs);

  // Sets how `t` is linearised (a permutation of its dims, outermost
  // first); raises InvalidModel for anything else.
  void setLayout(TensorRef t, Layout layout);

  bool operator==(const OperatorGraph&) const = default;

protected:
  explicit OperatorGraph(Level level) : level_(level) {}
  ~OperatorGraph() = default;
  OperatorGraph(const OperatorGraph&) = default;
  OperatorGraph& operator=(const OperatorGraph&) = default;

  friend class GraphRewriter;

private:
  Level level_;
  std::vector<Operator> ops_;
};

// The shared shape of block and thread graphs: how the work is partitioned.
class PartitionedGraph : public OperatorGraph {
public:
  // `inputs`: the parent operator's input tensors, in order (Mirage's
  // TBGraph(I, gridDims, forloopDims)).
  const std::vector<TensorDesc>& inputs() const { return inputs_; }
  // Grid dims for a block graph, block (thread) dims for a thread graph; at most 3.
  const Shape& gridDims() const { return grid_; }
  const Shape& forLoopDims() const { return forLoop_; }
  int64_t numPartitions() const; // product of the grid dims
  int64_t numIterations() const; // product of the for-loop dims

  TensorRef inputIterator(int inputIndex, DimMap imap, DimMap fmap);
  TensorRef outputAccumulator(TensorRef x, DimMap omap, DimMap fmap);
  // The output accumulators, in order: the parent operator's outputs.
  std::vector<int> outputAccumulators() const;

  bool operator==(const PartitionedGraph&) const = default;

protected:
  PartitionedGraph(Level level, std::vector<TensorDesc> inputs, Shape grid, Shape forLoop);

private:
  std::vector<TensorDesc> inputs_;
  Shape grid_;
  Shape forLoop_;
};

class BlockGraph final : public PartitionedGraph {
public:
  BlockGraph(std::vector<TensorDesc> inputs, Shape gridDims, Shape forLoopDims)
      : PartitionedGraph(Level::Block, std::move(inputs), std::move(gridDims), std::move(forLoopDims)) {}
};

class ThreadGraph final : public PartitionedGraph {
public:
  ThreadGraph(std::vector<TensorDesc> inputs, Shape blockDims, Shape forLoopDims)
      : PartitionedGraph(Level::Thread, std::move(inputs), std::move(blockDims), std::move(forLoopDims)) {}
};

// The top level: a tensor program over device memory. A "μGraph" is a
// KernelGraph with its nested block and thread graphs.
class KernelGraph final : public OperatorGraph {
public:
  explicit KernelGraph(std::string name = {}) : OperatorGraph(Level::Kernel), name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  TensorRef input(std::string name, Shape shape, DType dtype = DType::F16);
  void markOutput(TensorRef t);
  const std::vector<TensorRef>& outputs() const { return outputs_; }
  std::vector<int> inputOps() const; // the Input operators, in order

  bool operator==(const KernelGraph&) const = default;

private:
  friend class GraphRewriter;
  std::string name_;
  std::vector<TensorRef> outputs_;
};

// The only way to replace a graph's operators wholesale (canonical
// reordering); every operator is checked again as it is appended.
class GraphRewriter {
public:
  static void setOps(OperatorGraph& graph, std::vector<Operator> ops);
  static void setOutputs(KernelGraph& graph, std::vector<TensorRef> outputs);
};

// The level decides the class; these replace dynamic_cast on the
// deliberately non-polymorphic hierarchy (nullptr if the level differs).
const PartitionedGraph* asPartitioned(const OperatorGraph& graph);
const KernelGraph* asKernel(const OperatorGraph& graph);

using MuGraph = KernelGraph;

} // namespace tcx::mugraph
