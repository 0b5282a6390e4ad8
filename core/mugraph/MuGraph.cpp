#include "mugraph/MuGraph.h"

#include "mugraph/ShapeInference.h"
#include "support/Error.h"

#include <algorithm>
#include <fmt/ranges.h>

namespace tcx::mugraph {

const TensorDesc& OperatorGraph::desc(TensorRef t) const { return op(t.op).outputs.at(static_cast<size_t>(t.output)); }

TensorRef OperatorGraph::append(Operator op) {
  op.outputs = inferOutputs(*this, op);
  ops_.push_back(std::move(op));
  return {static_cast<int>(ops_.size()) - 1, 0};
}

void OperatorGraph::setLayout(TensorRef t, Layout layout) {
  TensorDesc& d = ops_.at(static_cast<size_t>(t.op)).outputs.at(static_cast<size_t>(t.output));
  std::vector<int> sorted = layout.order;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.empty() || sorted.size() == d.shape.size();
  for (size_t i = 0; i < sorted.size(); ++i) permutation = permutation && sorted[i] == static_cast<int>(i);
  TCX_CHECK(permutation, ErrorKind::InvalidModel, "layout [{}] is not a permutation of {} dims",
            fmt::join(layout.order, ","), d.shape.size());
  d.layout = std::move(layout);
}

namespace {
Operator makeOp(OpType type, std::vector<TensorRef> inputs = {}) {
  Operator op;
  op.type = type;
  op.inputs = std::move(inputs);
  return op;
}
} // namespace

TensorRef OperatorGraph::constant(double value) {
  Operator op = makeOp(OpType::Constant);
  op.value = value;
  return append(std::move(op));
}

TensorRef OperatorGraph::matmul(TensorRef x, TensorRef y) { return append(makeOp(OpType::Matmul, {x, y})); }

TensorRef OperatorGraph::concatMatmul(TensorRef w, TensorRef x, TensorRef y, TensorRef z) {
  return append(makeOp(OpType::ConcatMatmul, {w, x, y, z}));
}

TensorRef OperatorGraph::sum(TensorRef x, int dim, int64_t group) {
  Operator op = makeOp(OpType::Sum, {x});
  op.dim = dim;
  op.group = group;
  return append(std::move(op));
}

TensorRef OperatorGraph::add(TensorRef x, TensorRef y) { return append(makeOp(OpType::EwAdd, {x, y})); }
TensorRef OperatorGraph::mul(TensorRef x, TensorRef y) { return append(makeOp(OpType::EwMul, {x, y})); }
TensorRef OperatorGraph::div(TensorRef x, TensorRef y) { return append(makeOp(OpType::EwDiv, {x, y})); }
TensorRef OperatorGraph::exp(TensorRef x) { return append(makeOp(OpType::EwExp, {x})); }
TensorRef OperatorGraph::sqrt(TensorRef x) { return append(makeOp(OpType::Sqrt, {x})); }
TensorRef OperatorGraph::square(TensorRef x) { return append(makeOp(OpType::Square, {x})); }
TensorRef OperatorGraph::silu(TensorRef x) { return append(makeOp(OpType::SiLU, {x})); }

TensorRef OperatorGraph::rmsNorm(TensorRef x, double epsilon) {
  Operator op = makeOp(OpType::RMSNorm, {x});
  op.value = epsilon;
  return append(std::move(op));
}

TensorRef OperatorGraph::forLoopSum(TensorRef x) { return append(makeOp(OpType::ForLoopSum, {x})); }

TensorRef OperatorGraph::forLoopRms(TensorRef x, double epsilon) {
  Operator op = makeOp(OpType::ForLoopRms, {x});
  op.value = epsilon;
  return append(std::move(op));
}

TensorRef OperatorGraph::repeat(TensorRef x, Shape factors) {
  Operator op = makeOp(OpType::Repeat, {x});
  op.shape = std::move(factors);
  return append(std::move(op));
}

TensorRef OperatorGraph::reshape(TensorRef x, Shape shape) {
  Operator op = makeOp(OpType::Reshape, {x});
  op.shape = std::move(shape);
  return append(std::move(op));
}

std::vector<TensorRef> OperatorGraph::graphDefined(std::shared_ptr<const PartitionedGraph> body,
                                                   std::vector<TensorRef> inputs) {
  Operator op = makeOp(OpType::GraphDefined, std::move(inputs));
  op.body = std::move(body);
  TensorRef first = append(std::move(op));
  std::vector<TensorRef> outs;
  for (size_t j = 0; j < ops_.back().outputs.size(); ++j) outs.push_back({first.op, static_cast<int>(j)});
  return outs;
}

PartitionedGraph::PartitionedGraph(Level level, std::vector<TensorDesc> inputs, Shape grid, Shape forLoop)
    : OperatorGraph(level), inputs_(std::move(inputs)), grid_(std::move(grid)), forLoop_(std::move(forLoop)) {
  TCX_CHECK(grid_.size() <= 3, ErrorKind::InvalidModel, "a {} graph has at most 3 grid dimensions, got {}",
            levelName(level), grid_.size());
  for (int64_t d : grid_) TCX_CHECK(d >= 1, ErrorKind::InvalidModel, "grid dimension {} is not positive", d);
  for (int64_t d : forLoop_) TCX_CHECK(d >= 1, ErrorKind::InvalidModel, "for-loop dimension {} is not positive", d);
}

int64_t PartitionedGraph::numPartitions() const { return numElements(grid_); }
int64_t PartitionedGraph::numIterations() const { return numElements(forLoop_); }

TensorRef PartitionedGraph::inputIterator(int inputIndex, DimMap imap, DimMap fmap) {
  Operator op = makeOp(OpType::InputIterator);
  op.inputIndex = inputIndex;
  op.imap = std::move(imap);
  op.fmap = std::move(fmap);
  return append(std::move(op));
}

TensorRef PartitionedGraph::outputAccumulator(TensorRef x, DimMap omap, DimMap fmap) {
  Operator op = makeOp(OpType::OutputAccumulator, {x});
  op.omap = std::move(omap);
  op.fmap = std::move(fmap);
  return append(std::move(op));
}

std::vector<int> PartitionedGraph::outputAccumulators() const {
  std::vector<int> out;
  for (size_t i = 0; i < ops().size(); ++i)
    if (ops()[i].type == OpType::OutputAccumulator) out.push_back(static_cast<int>(i));
  return out;
}

TensorRef KernelGraph::input(std::string name, Shape shape, DType dtype) {
  Operator op = makeOp(OpType::Input);
  op.name = std::move(name);
  op.shape = std::move(shape);
  op.dtype = dtype;
  return append(std::move(op));
}

void KernelGraph::markOutput(TensorRef t) {
  TCX_CHECK(t.op >= 0 && static_cast<size_t>(t.op) < ops().size() && t.output >= 0 &&
                static_cast<size_t>(t.output) < op(t.op).outputs.size(),
            ErrorKind::InvalidModel, "output ({}, {}) names no tensor of the graph", t.op, t.output);
  outputs_.push_back(t);
}

std::vector<int> KernelGraph::inputOps() const {
  std::vector<int> out;
  for (size_t i = 0; i < ops().size(); ++i)
    if (ops()[i].type == OpType::Input) out.push_back(static_cast<int>(i));
  return out;
}

const PartitionedGraph* asPartitioned(const OperatorGraph& graph) {
  return graph.level() == Level::Kernel ? nullptr : static_cast<const PartitionedGraph*>(&graph);
}

const KernelGraph* asKernel(const OperatorGraph& graph) {
  return graph.level() == Level::Kernel ? static_cast<const KernelGraph*>(&graph) : nullptr;
}

void GraphRewriter::setOps(OperatorGraph& graph, std::vector<Operator> ops) {
  graph.ops_.clear();
  for (Operator& op : ops) graph.append(std::move(op));
}

void GraphRewriter::setOutputs(KernelGraph& graph, std::vector<TensorRef> outputs) {
  graph.outputs_.clear();
  for (TensorRef t : outputs) graph.markOutput(t);
}

} // namespace tcx::mugraph
