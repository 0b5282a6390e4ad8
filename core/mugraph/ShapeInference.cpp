#include "mugraph/ShapeInference.h"

#include "mugraph/LoopPhase.h"
#include "mugraph/Partition.h"
#include "support/Error.h"

#include <fmt/ranges.h>

namespace tcx::mugraph {

namespace {

std::string str(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ",")); }

TensorDesc like(const TensorDesc& x, Shape shape) { return {std::move(shape), x.dtype, {}}; }

TensorDesc matmulOf(const TensorDesc& x, const TensorDesc& y) {
  const Shape &a = x.shape, &b = y.shape;
  TCX_CHECK(a.size() >= 2 && a.size() == b.size(), ErrorKind::ShapeInference,
            "Matmul needs two operands of the same rank >= 2, got {} and {}", str(a), str(b));
  size_t r = a.size();
  TCX_CHECK(a[r - 1] == b[r - 2], ErrorKind::ShapeInference, "Matmul: {} x {}: inner dims differ", str(a), str(b));
  // Batch dims broadcast as in ONNX MatMul: a block's query heads against
  // the one key head they share (GQA) need no Repeat.
  Shape out = a;
  for (size_t d = 0; d + 2 < r; ++d) {
    TCX_CHECK(a[d] == b[d] || a[d] == 1 || b[d] == 1, ErrorKind::ShapeInference,
              "Matmul: {} x {}: batch dims differ", str(a), str(b));
    out[d] = std::max(a[d], b[d]);
  }
  out[r - 1] = b[r - 1];
  return like(x, out);
}

TensorDesc iteratorOf(const PartitionedGraph& g, const Operator& op) {
  TCX_CHECK(op.inputIndex >= 0 && static_cast<size_t>(op.inputIndex) < g.inputs().size(), ErrorKind::InvalidModel,
            "InputIterator reads input {} of a graph with {} inputs", op.inputIndex, g.inputs().size());
  const TensorDesc& in = g.inputs()[op.inputIndex];
  Shape block = splitShape(in.shape, g.gridDims(), op.imap, true, "InputIterator imap");
  return like(in, splitShape(block, g.forLoopDims(), op.fmap, true, "InputIterator fmap"));
}

TensorDesc accumulatorOf(const PartitionedGraph& g, const Operator& op, const TensorDesc& x) {
  // omap: blocks write disjoint parts of device memory, so φ is not allowed
  // (Mirage §2); fmap may accumulate over φ.
  Shape full = joinShape(joinShape(x.shape, g.forLoopDims(), op.fmap), g.gridDims(), op.omap);
  splitShape(full, g.gridDims(), op.omap, false, "OutputAccumulator omap");
  splitShape(full, g.forLoopDims(), op.fmap, true, "OutputAccumulator fmap");
  return like(x, full);
}

std::vector<TensorDesc> graphDefinedOf(const OperatorGraph& g, const Operator& op, const std::vector<TensorDesc>& in) {
  TCX_CHECK(op.body != nullptr, ErrorKind::InvalidModel, "GraphDefined operator without a body");
  const PartitionedGraph& body = *op.body;
  Level expected = g.level() == Level::Kernel ? Level::Block : Level::Thread;
  TCX_CHECK(body.level() == expected, ErrorKind::InvalidModel,
            "a {} graph's graph-defined operator needs a {} graph, got a {} graph", levelName(g.level()),
            levelName(expected), levelName(body.level()));
  // Layouts may differ: an input iterator loads from any linearisation.
  bool same = body.inputs().size() == in.size();
  for (size_t i = 0; same && i < in.size(); ++i)
    same = body.inputs()[i].shape == in[i].shape && body.inputs()[i].dtype == in[i].dtype;
  TCX_CHECK(same, ErrorKind::ShapeInference,
            "GraphDefined: the body's {} inputs differ in shape or dtype from the {} operands given",
            body.inputs().size(), in.size());
  std::vector<TensorDesc> out;
  for (int i : body.outputAccumulators()) out.push_back(body.op(i).outputs.at(0));
  TCX_CHECK(!out.empty(), ErrorKind::InvalidModel, "GraphDefined: the body has no output accumulator");
  return out;
}

TensorDesc reshapeOf(const TensorDesc& x, const Shape& target) {
  TCX_CHECK(numElements(target) == numElements(x.shape), ErrorKind::ShapeInference, "Reshape {} to {}: sizes differ",
            str(x.shape), str(target));
  return like(x, target);
}

TensorDesc repeatOf(const TensorDesc& x, const Shape& factors) {
  TCX_CHECK(factors.size() == x.shape.size(), ErrorKind::ShapeInference, "Repeat {} by {}: ranks differ", str(x.shape),
            str(factors));
  Shape out = x.shape;
  for (size_t d = 0; d < out.size(); ++d) {
    TCX_CHECK(factors[d] >= 1, ErrorKind::ShapeInference, "Repeat factor {} is not positive", factors[d]);
    out[d] *= factors[d];
  }
  return like(x, out);
}

TensorDesc sumOf(const TensorDesc& x, int dim, int64_t group) {
  TCX_CHECK(dim >= 0 && static_cast<size_t>(dim) < x.shape.size(), ErrorKind::ShapeInference,
            "Sum over dim {} of a rank-{} tensor", dim, x.shape.size());
  TCX_CHECK(group >= 1 && x.shape[dim] % group == 0, ErrorKind::ShapeInference,
            "Sum: dim {} of {} does not split into groups of {}", dim, str(x.shape), group);
  Shape out = x.shape;
  out[dim] /= group;
  return like(x, out);
}

} // namespace

std::vector<TensorDesc> inferOutputs(const OperatorGraph& g, const Operator& op) {
  TCX_CHECK(allowedAt(op.type, g.level()), ErrorKind::InvalidModel, "{} is not an operator of {} graphs",
            opTypeName(op.type), levelName(g.level()));
  unsigned arity = numOperands(op.type);
  TCX_CHECK(op.type == OpType::GraphDefined || op.inputs.size() == arity, ErrorKind::InvalidModel,
            "{} takes {} operands, got {}", opTypeName(op.type), arity, op.inputs.size());
  std::vector<TensorDesc> in;
  for (TensorRef t : op.inputs) {
    TCX_CHECK(t.op >= 0 && static_cast<size_t>(t.op) < g.ops().size() && t.output >= 0 &&
                  static_cast<size_t>(t.output) < g.op(t.op).outputs.size(),
              ErrorKind::InvalidModel, "{} reads tensor ({}, {}), which no earlier operator produces",
              opTypeName(op.type), t.op, t.output);
    in.push_back(g.desc(t));
  }
  if (const PartitionedGraph* p = asPartitioned(g)) {
    std::vector<LoopPhase> phases = loopPhases(*p), operands;
    for (TensorRef t : op.inputs) operands.push_back(phases[static_cast<size_t>(t.op)]);
    phaseOf(op, operands);
  }
  switch (op.type) {
  case OpType::Input: return {TensorDesc{op.shape, op.dtype, {}}};
  case OpType::Constant: return {TensorDesc{{1}, DType::F32, {}}};
  case OpType::InputIterator: return {iteratorOf(*asPartitioned(g), op)};
  case OpType::OutputAccumulator: return {accumulatorOf(*asPartitioned(g), op, in[0])};
  case OpType::Matmul: return {matmulOf(in[0], in[1])};
  case OpType::ConcatMatmul: {
    TensorDesc wy = matmulOf(in[0], in[2]), xz = matmulOf(in[1], in[3]);
    TCX_CHECK(wy.shape == xz.shape, ErrorKind::ShapeInference, "ConcatMatmul: W Y is {} but X Z is {}", str(wy.shape),
              str(xz.shape));
    return {wy};
  }
  case OpType::Sum: return {sumOf(in[0], op.dim, op.group)};
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv: return {like(in[0], broadcastShapes(in[0].shape, in[1].shape))};
  case OpType::RMSNorm:
    TCX_CHECK(!in[0].shape.empty(), ErrorKind::ShapeInference, "RMSNorm of a scalar");
    return {like(in[0], in[0].shape)};
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU: return {like(in[0], in[0].shape)};
  case OpType::Repeat: return {repeatOf(in[0], op.shape)};
  case OpType::Reshape: return {reshapeOf(in[0], op.shape)};
  case OpType::GraphDefined: return graphDefinedOf(g, op, in);
  // The operand's dtype, as for an output accumulator; both accumulate in
  // float (SharedMemoryPlan.h).
  case OpType::ForLoopSum: return {like(in[0], in[0].shape)};
  case OpType::ForLoopRms: {
    TCX_CHECK(!in[0].shape.empty(), ErrorKind::ShapeInference, "ForLoopRms of a scalar");
    Shape rows = in[0].shape;
    rows.back() = 1;
    return {like(in[0], rows)};
  }
  }
  raise(ErrorKind::Internal, "unhandled μGraph operator");
}

} // namespace tcx::mugraph
