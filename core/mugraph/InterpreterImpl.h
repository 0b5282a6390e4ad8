#pragma once
// The interpreter's definition; included only where a domain instantiates it
// (FloatInterpreter.cpp, verify/FieldDomain.cpp, verify/ExpTerms.cpp).

#include "mugraph/Interpreter.h"
#include "mugraph/LoopPhase.h"
#include "mugraph/Partition.h"
#include "support/Error.h"

#include <fmt/ranges.h>

namespace tcx::mugraph {

template <typename Domain>
auto Interpreter<Domain>::run(const KernelGraph& graph, const std::vector<Tensor>& inputs) const
    -> std::vector<Tensor> {
  std::vector<int> inputOps = graph.inputOps();
  TCX_CHECK(inputs.size() == inputOps.size(), ErrorKind::InvalidArgument, "μGraph '{}' takes {} inputs, got {}",
            graph.name(), inputOps.size(), inputs.size());
  Frame frame(graph.ops().size());
  size_t next = 0;
  for (size_t i = 0; i < graph.ops().size(); ++i) {
    const Operator& op = graph.ops()[i];
    if (op.type == OpType::Input) {
      const Tensor& in = inputs[next++];
      TCX_CHECK(in.shape == op.shape, ErrorKind::InvalidArgument, "input '{}' has shape [{}], expected [{}]", op.name,
                fmt::join(in.shape, ","), fmt::join(op.shape, ","));
      frame.borrowed[i] = &in;
      continue;
    }
    frame.owned[i] = apply(op, frame.operands(op));
  }
  std::vector<Tensor> outs;
  for (TensorRef t : graph.outputs()) outs.push_back(frame.at(t));
  return outs;
}

template <typename Domain>
auto Interpreter<Domain>::apply(const Operator& op, const std::vector<const Tensor*>& args) const
    -> std::vector<Tensor> {
  const Domain& d = domain_;
  auto binary = [&](auto fn) { return mapBinary(*args[0], *args[1], op.outputs[0].shape, fn); };
  switch (op.type) {
  case OpType::Constant: return {Tensor({1}, d.constant(op.value))};
  case OpType::Matmul: return {matmulOf(d, *args[0], *args[1])};
  case OpType::ConcatMatmul: {
    // Concatenating along the reduction dim splits the sum in two.
    Tensor wy = matmulOf(d, *args[0], *args[2]), xz = matmulOf(d, *args[1], *args[3]);
    return {mapBinary(wy, xz, wy.shape, [&](const Value& a, const Value& b) { return d.add(a, b); })};
  }
  case OpType::Sum: return {sumOf(d, *args[0], op.dim, op.group)};
  case OpType::EwAdd: return {binary([&](const Value& a, const Value& b) { return d.add(a, b); })};
  case OpType::EwMul: return {binary([&](const Value& a, const Value& b) { return d.mul(a, b); })};
  case OpType::EwDiv: return {binary([&](const Value& a, const Value& b) { return d.div(a, b); })};
  case OpType::EwExp: return {mapUnary(*args[0], [&](const Value& a) { return d.exp(a); })};
  case OpType::Sqrt: return {mapUnary(*args[0], [&](const Value& a) { return d.sqrt(a); })};
  case OpType::Square: return {mapUnary(*args[0], [&](const Value& a) { return d.mul(a, a); })};
  case OpType::SiLU: {
    Value one = d.constant(1.0);
    return {mapUnary(*args[0], [&](const Value& a) { return d.div(a, d.add(one, d.exp(d.sub(d.zero(), a)))); })};
  }
  case OpType::RMSNorm: return {rmsNorm(*args[0], op.value)};
  case OpType::Repeat: return {repeatOf(*args[0], op.shape)};
  case OpType::Reshape: {
    Tensor out = *args[0];
    out.shape = op.shape;
    return {std::move(out)};
  }
  case OpType::GraphDefined: return runPartitioned(*op.body, args);
  case OpType::Input:
  case OpType::InputIterator:
  case OpType::OutputAccumulator:
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: break; // handled by the enclosing traversal
  }
  raise(ErrorKind::Internal, "{} reached the operator evaluator", opTypeName(op.type));
}

template <typename Domain>
auto Interpreter<Domain>::runPartitioned(const PartitionedGraph& body, const std::vector<const Tensor*>& inputs) const
    -> std::vector<Tensor> {
  const Shape &grid = body.gridDims(), &loop = body.forLoopDims();
  const std::vector<Operator>& ops = body.ops();
  const std::vector<LoopPhase> phases = loopPhases(body);
  std::vector<int> accumulators = body.outputAccumulators();
  std::vector<size_t> accumulatorOf(ops.size(), 0);
  for (size_t k = 0; k < accumulators.size(); ++k) accumulatorOf[static_cast<size_t>(accumulators[k])] = k;
  std::vector<Tensor> outs;
  for (int a : accumulators) outs.emplace_back(body.op(a).outputs[0].shape, domain_.zero());

  forEachIndex(grid, [&](const Shape& g) {
    std::vector<Tensor> blocks;
    for (int a : accumulators) {
      const Operator& acc = body.op(a);
      blocks.emplace_back(splitShape(acc.outputs[0].shape, grid, acc.omap, false, "omap"), domain_.zero());
    }
    Frame frame(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
      if (isForLoopAccumulation(ops[i].type)) frame.owned[i] = {Tensor(ops[i].outputs[0].shape, domain_.zero())};
    auto run = [&](LoopPhase phase, const Shape& l) {
      for (size_t i = 0; i < ops.size(); ++i) {
        const Operator& op = ops[i];
        if (runsIn(op, phases[i]) != phase) continue;
        if (op.type == OpType::InputIterator) {
          const Tensor& in = *inputs[op.inputIndex];
          Shape blockChunk = splitShape(in.shape, grid, op.imap, true, "imap");
          const Shape& chunk = op.outputs[0].shape;
          Shape offset = chunkOffset(blockChunk, grid, op.imap, g), inner = chunkOffset(chunk, loop, op.fmap, l);
          for (size_t k = 0; k < offset.size(); ++k) offset[k] += inner[k];
          if (chunk == in.shape)
            frame.borrowed[i] = &in;
          else
            frame.owned[i] = {sliceOf(in, offset, chunk)};
        } else if (op.type == OpType::OutputAccumulator) {
          const Tensor& x = frame.at(op.inputs[0]);
          accumulateInto(domain_, blocks[accumulatorOf[i]], x, chunkOffset(x.shape, loop, op.fmap, l));
        } else if (op.type == OpType::ForLoopSum) {
          const Tensor& x = frame.at(op.inputs[0]);
          accumulateInto(domain_, frame.owned[i][0], x, Shape(x.shape.size(), 0));
        } else if (op.type == OpType::ForLoopRms) {
          addSquaredRows(frame.owned[i][0], frame.at(op.inputs[0]));
        } else {
          frame.owned[i] = apply(op, frame.operands(op));
        }
      }
    };
    // An Invariant or After phase runs once; its for-loop index is never
    // read (every fmap of theirs is φ).
    const Shape once(loop.size(), 0);
    run(LoopPhase::Invariant, once);
    forEachIndex(loop, [&](const Shape& l) { run(LoopPhase::Body, l); });
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].type == OpType::ForLoopRms)
        finishRms(frame.owned[i][0], rmsCount(body, ops[i]), ops[i].value);
    run(LoopPhase::After, once);
    for (size_t k = 0; k < accumulators.size(); ++k)
      accumulateInto(domain_, outs[k], blocks[k], chunkOffset(blocks[k].shape, grid, body.op(accumulators[k]).omap, g));
  });
  return outs;
}

template <typename Domain> void Interpreter<Domain>::addSquaredRows(Tensor& sums, const Tensor& x) const {
  size_t n = static_cast<size_t>(x.shape.back());
  for (size_t row = 0; row < sums.data.size(); ++row)
    for (size_t j = 0; j < n; ++j) {
      const Value& v = x.data[row * n + j];
      sums.data[row] = domain_.add(sums.data[row], domain_.mul(v, v));
    }
}

template <typename Domain> void Interpreter<Domain>::finishRms(Tensor& sums, int64_t count, double epsilon) const {
  Value n = domain_.constant(static_cast<double>(count)), eps = domain_.constant(epsilon);
  for (Value& s : sums.data) s = domain_.sqrt(domain_.add(domain_.div(s, n), eps));
}

template <typename Domain> auto Interpreter<Domain>::rmsNorm(const Tensor& x, double epsilon) const -> Tensor {
  int64_t n = x.shape.back();
  Tensor out = x;
  Value count = domain_.constant(static_cast<double>(n)), eps = domain_.constant(epsilon);
  for (size_t row = 0; row < x.data.size(); row += static_cast<size_t>(n)) {
    Value squares = domain_.zero();
    for (int64_t j = 0; j < n; ++j) squares = domain_.add(squares, domain_.mul(x.data[row + j], x.data[row + j]));
    Value rms = domain_.sqrt(domain_.add(domain_.div(squares, count), eps));
    for (int64_t j = 0; j < n; ++j) out.data[row + j] = domain_.div(x.data[row + j], rms);
  }
  return out;
}

} // namespace tcx::mugraph
