#include "view/MuGraphView.h"

#include "superopt/AbstractExpr.h"
#include "support/Error.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx::view {

using namespace tcx::mugraph;

namespace {

std::string pathText(const MuGraphPath& level, int op) {
  std::string s;
  for (int step : level) s += std::to_string(step) + "/";
  return s + std::to_string(op);
}

// "{x→0, y→φ}": grid dims are x, y, z and for-loop dims i, j, k, as in Mirage.
std::string mapText(const DimMap& map, const char* names) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < map.size(); ++i)
    parts.push_back(fmt::format("{}→{}", names[i], map[i] == kReplica ? std::string("φ") : std::to_string(map[i])));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

std::string descText(const TensorDesc& d) { return fmt::format("{} {}", shapeToString(d.shape), dtypeName(d.dtype)); }

// An Input by its name, anything else by its type and index ("Matmul 4:1").
std::string tensorName(const OperatorGraph& g, TensorRef t) {
  const Operator& op = g.op(t.op);
  if (op.type == OpType::Input) return op.name;
  return fmt::format("{} {}{}", opTypeName(op.type), t.op, t.output ? fmt::format(":{}", t.output) : "");
}

// "grid [2,2], for-loop [2]"; a thread graph's grid is its thread block.
std::string partitionText(const PartitionedGraph& body) {
  return fmt::format("{} {}, for-loop {}", body.level() == Level::Block ? "grid" : "block",
                     shapeToString(body.gridDims()), shapeToString(body.forLoopDims()));
}

// The level above `level` and the graph-defined operator there whose body
// `level` is; both null at the kernel level.
struct Parent {
  const OperatorGraph* graph = nullptr;
  const Operator* op = nullptr;
};

Parent parentOf(const KernelGraph& graph, const MuGraphPath& level) {
  if (level.empty()) return {};
  const OperatorGraph& above = muGraphLevel(graph, MuGraphPath(level.begin(), level.end() - 1));
  return {&above, &above.op(level.back())};
}

int accumulatorIndex(const OperatorGraph& g, int op) {
  const std::vector<int> accumulators = asPartitioned(g)->outputAccumulators();
  return static_cast<int>(std::find(accumulators.begin(), accumulators.end(), op) - accumulators.begin());
}

std::string labelOf(const OperatorGraph& g, int index, const Parent& parent) {
  const Operator& op = g.op(index);
  std::string label(opTypeName(op.type));
  switch (op.type) {
  case OpType::Input: label = op.name; break;
  case OpType::Constant: label += fmt::format(" {}", op.value); break;
  case OpType::InputIterator:
    label += fmt::format(" #{} {}\nimap {}\nfmap {}", op.inputIndex,
                         tensorName(*parent.graph, parent.op->inputs.at(static_cast<size_t>(op.inputIndex))),
                         mapText(op.imap, "xyz"), mapText(op.fmap, "ijk"));
    break;
  case OpType::OutputAccumulator:
    label += fmt::format(" #{}\nomap {}\nfmap {}", accumulatorIndex(g, index), mapText(op.omap, "xyz"),
                         mapText(op.fmap, "ijk"));
    break;
  case OpType::Sum: label += fmt::format(" dim {} / {}", op.dim, op.group); break;
  case OpType::GraphDefined:
    label = fmt::format("{} graph\n{}", levelName(op.body->level()), partitionText(*op.body));
    break;
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::RMSNorm:
  case OpType::Repeat:
  case OpType::Reshape:
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: break; // the type and the output shapes; details() has the rest
  }
  for (const TensorDesc& d : op.outputs) label += "\n" + shapeToString(d.shape);
  return label;
}

NodeStyle styleOf(OpType type) {
  switch (type) {
  case OpType::Input:
  case OpType::InputIterator: return NodeStyle::GraphInput;
  case OpType::OutputAccumulator: return NodeStyle::GraphOutput;
  case OpType::Constant: return NodeStyle::Constant;
  case OpType::Reshape:
  case OpType::Repeat: return NodeStyle::DataMovementOp;
  case OpType::GraphDefined: return NodeStyle::CollapsedGroup;
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
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: return NodeStyle::Op;
  }
  return NodeStyle::Op;
}

// The edge carrying tensor `t` of `level` to node `to`.
DisplayEdge operandEdge(const OperatorGraph& g, const MuGraphPath& level, TensorRef t, size_t to) {
  return {.from = static_cast<size_t>(t.op),
          .to = to,
          .label = shapeToString(g.desc(t).shape),
          .tooltip = fmt::format("{}: {}", tensorName(g, t), descText(g.desc(t))),
          .ref = ItemRef{ItemKind::Value, fmt::format("{}:{}", pathText(level, t.op), t.output)}};
}

// Longer expressions (a whole attention layer's) are cut here: the details
// are for reading.
constexpr size_t kMaxExprChars = 400;

using LevelExprs = std::vector<std::vector<superopt::ExprRef>>;

// The abstract expression (Mirage §4.3) of every output of every operator of
// `level`: a nested level's iterators read the expressions of the operands
// of the operator above whose body it is.
LevelExprs levelExprs(const KernelGraph& graph, const MuGraphPath& level) {
  if (level.empty()) return superopt::exprsOf(graph);
  const MuGraphPath up(level.begin(), level.end() - 1);
  const LevelExprs above = levelExprs(graph, up);
  const Operator& defining = muGraphLevel(graph, up).op(level.back());
  LevelExprs exprs;
  std::vector<superopt::ExprRef> operands;
  for (const Operator& op : defining.body->ops()) {
    operands.clear();
    if (op.type == OpType::InputIterator) {
      const TensorRef read = defining.inputs.at(static_cast<size_t>(op.inputIndex));
      operands.push_back(above.at(static_cast<size_t>(read.op)).at(static_cast<size_t>(read.output)));
    }
    for (TensorRef t : op.inputs)
      operands.push_back(exprs.at(static_cast<size_t>(t.op)).at(static_cast<size_t>(t.output)));
    exprs.push_back(superopt::exprsOf(*defining.body, op, operands));
  }
  return exprs;
}

std::string exprLines(const std::vector<superopt::ExprRef>& exprs) {
  std::string s;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const std::string& e = exprs[i]->str();
    s += fmt::format("\nexpr {}: {}", i, e.size() > kMaxExprChars ? e.substr(0, kMaxExprChars) + "…" : e);
  }
  return s;
}

std::string details(const OperatorGraph& g, const MuOpId& id, const Parent& parent) {
  const Operator& op = g.op(id.op);
  std::string s = fmt::format("{} {} ({} level)", pathText(id.level, id.op), opTypeName(op.type), levelName(g.level()));
  switch (op.type) {
  case OpType::Input: s += fmt::format("\nname: {}", op.name); break;
  case OpType::Constant: s += fmt::format("\nvalue: {}", op.value); break;
  case OpType::Sum: s += fmt::format("\nsums every {} elements of dim {}", op.group, op.dim); break;
  case OpType::RMSNorm:
  case OpType::ForLoopRms: s += fmt::format("\nepsilon: {}", op.value); break;
  case OpType::Reshape: s += fmt::format("\nshape: {}", shapeToString(op.shape)); break;
  case OpType::Repeat: s += fmt::format("\nfactors: {}", shapeToString(op.shape)); break;
  case OpType::InputIterator: {
    const TensorRef read = parent.op->inputs.at(static_cast<size_t>(op.inputIndex));
    s +=
        fmt::format("\nreads parent input #{}: {} {}\nimap {}\nfmap {}", op.inputIndex, tensorName(*parent.graph, read),
                    descText(parent.graph->desc(read)), mapText(op.imap, "xyz"), mapText(op.fmap, "ijk"));
    break;
  }
  case OpType::OutputAccumulator:
    s += fmt::format("\nwrites parent output #{}\nomap {}\nfmap {} (φ: accumulated over the loop)",
                     accumulatorIndex(g, id.op), mapText(op.omap, "xyz"), mapText(op.fmap, "ijk"));
    break;
  case OpType::GraphDefined:
    s += fmt::format("\nbody: {} graph, {}, {} operators", levelName(op.body->level()), partitionText(*op.body),
                     op.body->ops().size());
    break;
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::ForLoopSum: break; // no attributes: the operands and outputs below say it all
  }
  for (size_t i = 0; i < op.inputs.size(); ++i)
    s += fmt::format("\nin  {}: {} {}", i, tensorName(g, op.inputs[i]), descText(g.desc(op.inputs[i])));
  for (size_t i = 0; i < op.outputs.size(); ++i) s += fmt::format("\nout {}: {}", i, descText(op.outputs[i]));
  return s;
}

} // namespace

ItemRef muOpRef(const MuOpId& id) { return {ItemKind::Node, pathText(id.level, id.op)}; }

std::optional<MuOpId> parseMuOpRef(const ItemRef& ref) {
  if (ref.kind != ItemKind::Node || ref.name.empty()) return std::nullopt;
  std::vector<int> steps;
  const char* p = ref.name.data();
  const char* end = p + ref.name.size();
  while (true) {
    int step = 0;
    const auto [next, ec] = std::from_chars(p, end, step);
    if (ec != std::errc() || step < 0) return std::nullopt;
    steps.push_back(step);
    if (next == end) break;
    if (*next != '/') return std::nullopt;
    p = next + 1;
  }
  const int op = steps.back();
  steps.pop_back();
  return MuOpId{std::move(steps), op};
}

const OperatorGraph& muGraphLevel(const KernelGraph& graph, const MuGraphPath& level) {
  const OperatorGraph* g = &graph;
  for (size_t depth = 0; depth < level.size(); ++depth) {
    const int step = level[depth];
    TCX_CHECK(step >= 0 && step < static_cast<int>(g->ops().size()) && g->op(step).body, ErrorKind::InvalidArgument,
              "{} is not a graph-defined operator of {}", pathText({level.begin(), level.begin() + depth}, step),
              graph.name());
    g = g->op(step).body.get();
  }
  return *g;
}

std::string muGraphTitle(const KernelGraph& graph, const MuGraphPath& level) {
  if (level.empty()) return fmt::format("kernel graph {}", graph.name());
  const PartitionedGraph& body = *asPartitioned(muGraphLevel(graph, level));
  return fmt::format("{} graph of operator {}: {}", levelName(body.level()),
                     pathText({level.begin(), level.end() - 1}, level.back()), partitionText(body));
}

DisplayGraph buildMuGraphView(const KernelGraph& graph, const MuGraphPath& level) {
  const OperatorGraph& g = muGraphLevel(graph, level);
  const Parent parent = parentOf(graph, level);
  DisplayGraph out;
  out.name = muGraphTitle(graph, level);
  for (int i = 0; i < static_cast<int>(g.ops().size()); ++i) {
    const Operator& op = g.op(i);
    const MuOpId id{level, i};
    std::string tooltip = details(g, id, parent);
    if (op.body) tooltip += "\n(double-click to open)";
    out.nodes.push_back({.ref = muOpRef(id),
                         .label = labelOf(g, i, parent),
                         .tooltip = std::move(tooltip),
                         .style = styleOf(op.type),
                         .opType = std::string(opTypeName(op.type))});
    for (TensorRef t : op.inputs) out.edges.push_back(operandEdge(g, level, t, static_cast<size_t>(i)));
  }
  if (const KernelGraph* kernel = asKernel(g))
    for (size_t k = 0; k < kernel->outputs().size(); ++k) {
      const TensorRef t = kernel->outputs()[k];
      out.nodes.push_back({.ref = {ItemKind::Value, fmt::format("output {}", k)},
                           .label = fmt::format("output {}\n{}", k, shapeToString(g.desc(t).shape)),
                           .tooltip = fmt::format("output {}: {}", k, descText(g.desc(t))),
                           .style = NodeStyle::GraphOutput});
      out.edges.push_back(operandEdge(g, level, t, out.nodes.size() - 1));
    }
  return out;
}

std::string muOpDetails(const KernelGraph& graph, const MuOpId& id) {
  const OperatorGraph& g = muGraphLevel(graph, id.level);
  TCX_CHECK(id.op >= 0 && id.op < static_cast<int>(g.ops().size()), ErrorKind::InvalidArgument, "{} has no operator {}",
            muGraphTitle(graph, id.level), id.op);
  return details(g, id, parentOf(graph, id.level)) +
         exprLines(levelExprs(graph, id.level).at(static_cast<size_t>(id.op)));
}

} // namespace tcx::view
