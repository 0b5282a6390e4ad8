#include "superopt/AbstractExpr.h"

#include "mugraph/LoopPhase.h"
#include "support/Error.h"

#include <bit>
#include <fmt/format.h>
#include <functional>

namespace tcx::superopt {

using mugraph::OperatorGraph;
using mugraph::Operator;
using mugraph::OpType;
using mugraph::TensorRef;

namespace {

using Kind = AbstractExpr::Kind;

uint64_t mix(uint64_t seed, uint64_t v) { return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

const char* functionName(Kind kind) {
  switch (kind) {
  case Kind::Add: return "add";
  case Kind::Mul: return "mul";
  case Kind::Div: return "div";
  case Kind::Exp: return "exp";
  case Kind::Sqrt: return "sqrt";
  case Kind::Sum: return "sum";
  case Kind::Input:
  case Kind::Constant: break;
  }
  raise(ErrorKind::Internal, "a leaf has no function name");
}

// Input names are free text (ONNX value names), so the characters that
// delimit terms are escaped and a leading '#', which marks constants, too:
// distinct terms then always print differently.
std::string escapeName(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '(' || c == ')' || c == ',' || c == '\\' || (c == '#' && out.empty())) out += '\\';
    out += c;
  }
  return out;
}

std::string printTerm(Kind kind, const std::string& name, double value, int64_t size, const ExprRef& lhs,
                      const ExprRef& rhs) {
  switch (kind) {
  case Kind::Input: return escapeName(name);
  case Kind::Constant: return fmt::format("#{:.17g}", value);
  case Kind::Exp:
  case Kind::Sqrt: return fmt::format("{}({})", functionName(kind), lhs->str());
  case Kind::Sum: return fmt::format("sum({},{})", size, lhs->str());
  case Kind::Add:
  case Kind::Mul:
  case Kind::Div: return fmt::format("{}({},{})", functionName(kind), lhs->str(), rhs->str());
  }
  raise(ErrorKind::Internal, "unknown abstract expression kind");
}

ExprRef make(Kind kind, ExprRef lhs, ExprRef rhs = nullptr) {
  return std::make_shared<const AbstractExpr>(kind, std::string(), 0.0, 0, std::move(lhs), std::move(rhs));
}

} // namespace

AbstractExpr::AbstractExpr(Kind kind, std::string name, double value, int64_t size, ExprRef lhs, ExprRef rhs)
    : kind_(kind), name_(std::move(name)), value_(value), size_(size), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {
  hash_ = mix(static_cast<uint64_t>(kind_), std::hash<std::string>{}(name_));
  hash_ = mix(hash_, std::bit_cast<uint64_t>(value_));
  hash_ = mix(hash_, static_cast<uint64_t>(size_));
  if (lhs_) hash_ = mix(hash_, lhs_->hash());
  if (rhs_) hash_ = mix(hash_, rhs_->hash());
  str_ = printTerm(kind_, name_, value_, size_, lhs_, rhs_);
}

ExprRef AbstractExpr::input(std::string name) {
  return std::make_shared<const AbstractExpr>(Kind::Input, std::move(name), 0.0, 0, nullptr, nullptr);
}

ExprRef AbstractExpr::constant(double value) {
  return std::make_shared<const AbstractExpr>(Kind::Constant, std::string(), value, 0, nullptr, nullptr);
}

ExprRef AbstractExpr::add(ExprRef a, ExprRef b) { return make(Kind::Add, std::move(a), std::move(b)); }
ExprRef AbstractExpr::mul(ExprRef a, ExprRef b) { return make(Kind::Mul, std::move(a), std::move(b)); }
ExprRef AbstractExpr::div(ExprRef a, ExprRef b) { return make(Kind::Div, std::move(a), std::move(b)); }
ExprRef AbstractExpr::exp(ExprRef a) { return make(Kind::Exp, std::move(a)); }
ExprRef AbstractExpr::sqrt(ExprRef a) { return make(Kind::Sqrt, std::move(a)); }

ExprRef AbstractExpr::sum(int64_t size, ExprRef a) {
  TCX_CHECK(size >= 1, ErrorKind::InvalidArgument, "a sum of {} terms", size);
  if (size == 1) return a;
  return std::make_shared<const AbstractExpr>(Kind::Sum, std::string(), 0.0, size, std::move(a), nullptr);
}

namespace {

using E = AbstractExpr;

int64_t lastDim(const OperatorGraph& graph, TensorRef t) {
  const Shape& shape = graph.desc(t).shape;
  TCX_CHECK(!shape.empty(), ErrorKind::InvalidModel, "a reduction over a scalar");
  return shape.back();
}

// The terms Conversion writes for ONNX's x * Sigmoid(x): Sigmoid is
// 1 / (1 + exp(x * -1)).
ExprRef silu(const ExprRef& x) {
  ExprRef one = E::constant(1);
  return E::mul(x, E::div(one, E::add(one, E::exp(E::mul(x, E::constant(-1))))));
}

// The terms Conversion writes for Sqrt(ReduceMean(Pow(x, 2), -1) + eps) over
// n elements: ReduceMean is a Sum divided by its extent.
ExprRef rms(const ExprRef& x, int64_t n, double epsilon) {
  ExprRef mean = E::div(E::sum(n, E::mul(x, x)), E::constant(static_cast<double>(n)));
  return E::sqrt(E::add(mean, E::constant(epsilon)));
}

const mugraph::PartitionedGraph& partitionedOf(const OperatorGraph& graph, const Operator& op) {
  const mugraph::PartitionedGraph* partitioned = mugraph::asPartitioned(graph);
  TCX_CHECK(partitioned, ErrorKind::InvalidModel, "{} outside a block or thread graph", mugraph::opTypeName(op.type));
  return *partitioned;
}

// An output accumulator sums over the for-loop dims its fmap maps to φ,
// unless its operand exists only after the loop: then it stores it once.
ExprRef accumulate(const OperatorGraph& graph, const Operator& op, const ExprRef& x) {
  const mugraph::PartitionedGraph& partitioned = partitionedOf(graph, op);
  if (mugraph::loopPhases(partitioned).at(static_cast<size_t>(op.inputs[0].op)) == mugraph::LoopPhase::After) return x;
  int64_t accumulated = 1;
  for (size_t d = 0; d < op.fmap.size(); ++d)
    if (op.fmap[d] == mugraph::kReplica) accumulated *= partitioned.forLoopDims().at(d);
  return E::sum(accumulated, x);
}

// Every operator's output expressions, with `parentOperands` feeding the
// input iterators of a block or thread graph.
std::vector<std::vector<ExprRef>> exprsOfGraph(const OperatorGraph& graph, std::span<const ExprRef> parentOperands) {
  std::vector<std::vector<ExprRef>> exprs;
  exprs.reserve(graph.ops().size());
  std::vector<ExprRef> operands;
  for (const Operator& op : graph.ops()) {
    operands.clear();
    if (op.type == OpType::InputIterator) {
      TCX_CHECK(op.inputIndex >= 0 && static_cast<size_t>(op.inputIndex) < parentOperands.size(),
                ErrorKind::InvalidModel, "input iterator {} of {} operands", op.inputIndex, parentOperands.size());
      operands.push_back(parentOperands[static_cast<size_t>(op.inputIndex)]);
    }
    for (TensorRef t : op.inputs)
      operands.push_back(exprs.at(static_cast<size_t>(t.op)).at(static_cast<size_t>(t.output)));
    exprs.push_back(exprsOf(graph, op, operands));
  }
  return exprs;
}

} // namespace

std::vector<ExprRef> exprsOf(const OperatorGraph& graph, const Operator& op, std::span<const ExprRef> operands) {
  size_t expected = op.type == OpType::GraphDefined ? op.inputs.size()
                    : op.type == OpType::InputIterator ? 1
                                                       : mugraph::numOperands(op.type);
  TCX_CHECK(operands.size() == expected, ErrorKind::InvalidArgument, "{} takes {} operand expressions, not {}",
            mugraph::opTypeName(op.type), expected, operands.size());
  auto in = [&](size_t i) { return operands[i]; };
  switch (op.type) {
  case OpType::Input: return {E::input(op.name)};
  case OpType::Constant: return {E::constant(op.value)};
  case OpType::InputIterator:
  case OpType::Repeat:
  case OpType::Reshape: return {in(0)};
  case OpType::OutputAccumulator: return {accumulate(graph, op, in(0))};
  case OpType::Matmul: return {E::sum(lastDim(graph, op.inputs[0]), E::mul(in(0), in(1)))};
  case OpType::ConcatMatmul: // (W || X)(Y || Z) = W Y + X Z
    return {E::add(E::sum(lastDim(graph, op.inputs[0]), E::mul(in(0), in(2))),
                   E::sum(lastDim(graph, op.inputs[1]), E::mul(in(1), in(3))))};
  case OpType::Sum: return {E::sum(op.group, in(0))};
  case OpType::EwAdd: return {E::add(in(0), in(1))};
  case OpType::EwMul: return {E::mul(in(0), in(1))};
  case OpType::EwDiv: return {E::div(in(0), in(1))};
  case OpType::EwExp: return {E::exp(in(0))};
  case OpType::Sqrt: return {E::sqrt(in(0))};
  case OpType::Square: return {E::mul(in(0), in(0))};
  case OpType::SiLU: return {silu(in(0))};
  case OpType::RMSNorm: return {E::div(in(0), rms(in(0), lastDim(graph, op.inputs[0]), op.value))};
  case OpType::ForLoopSum: return {E::sum(partitionedOf(graph, op).numIterations(), in(0))};
  case OpType::ForLoopRms:
    return {rms(in(0), mugraph::rmsCount(partitionedOf(graph, op), op), op.value)};
  case OpType::GraphDefined: {
    TCX_CHECK(op.body, ErrorKind::InvalidModel, "a graph-defined operator without a body");
    std::vector<std::vector<ExprRef>> body = exprsOfGraph(*op.body, operands);
    std::vector<ExprRef> outputs;
    for (int acc : op.body->outputAccumulators()) outputs.push_back(body.at(static_cast<size_t>(acc)).at(0));
    return outputs;
  }
  }
  raise(ErrorKind::Internal, "unknown operator type {}", static_cast<int>(op.type));
}

std::vector<std::vector<ExprRef>> exprsOf(const mugraph::KernelGraph& graph) { return exprsOfGraph(graph, {}); }

ExprRef outputExpr(const mugraph::KernelGraph& graph) {
  TCX_CHECK(!graph.outputs().empty(), ErrorKind::InvalidArgument, "'{}' has no output", graph.name());
  TensorRef out = graph.outputs()[0];
  return exprsOf(graph).at(static_cast<size_t>(out.op)).at(static_cast<size_t>(out.output));
}

} // namespace tcx::superopt
