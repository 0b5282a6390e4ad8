#include "mugraph/Dot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx::mugraph {

namespace {

std::string mapText(const DimMap& map, const char* names) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < map.size(); ++i)
    parts.push_back(fmt::format("{}→{}", names[i], map[i] == kReplica ? std::string("φ") : std::to_string(map[i])));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

std::string labelOf(const Operator& op) {
  std::string label(opTypeName(op.type));
  switch (op.type) {
  case OpType::Input: label = op.name; break;
  case OpType::Constant: label += fmt::format(" {}", op.value); break;
  case OpType::InputIterator:
    label += fmt::format(" #{}\\nimap {}\\nfmap {}", op.inputIndex, mapText(op.imap, "xyz"), mapText(op.fmap, "ijk"));
    break;
  case OpType::OutputAccumulator:
    label += fmt::format("\\nomap {}\\nfmap {}", mapText(op.omap, "xyz"), mapText(op.fmap, "ijk"));
    break;
  case OpType::Sum: label += fmt::format(" dim {} / {}", op.dim, op.group); break;
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
  case OpType::GraphDefined:
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: break; // labelled by type and output shapes alone
  }
  for (const TensorDesc& d : op.outputs) label += fmt::format("\\n[{}]", fmt::join(d.shape, ","));
  return label;
}

class DotWriter {
public:
  explicit DotWriter(std::ostream& out) : out_(out) {}

  // Writes `g`'s operators under prefix `id` ("n", "n3_", ...); `operands`
  // are the parent's node ids feeding each input iterator.
  void level(const OperatorGraph& g, const std::string& id, const std::vector<std::string>& operands,
             const std::string& parent) {
    for (size_t i = 0; i < g.ops().size(); ++i) {
      const Operator& op = g.ops()[i];
      std::string node = fmt::format("{}{}", id, i);
      if (op.body) {
        out_ << fmt::format("subgraph cluster_{} {{\nlabel=\"{} graph: grid [{}], for-loop [{}]\";\n", node,
                            levelName(op.body->level()), fmt::join(op.body->gridDims(), ","),
                            fmt::join(op.body->forLoopDims(), ","));
        std::vector<std::string> inner;
        for (TensorRef t : op.inputs) inner.push_back(fmt::format("{}{}", id, t.op));
        level(*op.body, node + "_", inner, node);
        out_ << "}\n";
        out_ << fmt::format("{} [label=\"{}\", shape=box, style=rounded];\n", node, labelOf(op));
      } else {
        out_ << fmt::format("{} [label=\"{}\"];\n", node, labelOf(op));
      }
      for (TensorRef t : op.inputs) out_ << fmt::format("{}{} -> {};\n", id, t.op, node);
      if (op.type == OpType::InputIterator)
        out_ << fmt::format("{} -> {} [style=dashed];\n", operands.at(op.inputIndex), node);
      if (op.type == OpType::OutputAccumulator) out_ << fmt::format("{} -> {} [style=dashed];\n", node, parent);
    }
  }

private:
  std::ostream& out_;
};

} // namespace

void writeDot(const KernelGraph& graph, std::ostream& out) {
  out << fmt::format("digraph \"{}\" {{\ncompound=true;\nnode [shape=ellipse, fontsize=10];\n", graph.name());
  DotWriter(out).level(graph, "n", {}, "");
  for (size_t k = 0; k < graph.outputs().size(); ++k)
    out << fmt::format("out{} [label=\"output {}\", shape=plaintext];\nn{} -> out{};\n", k, k, graph.outputs()[k].op,
                       k);
  out << "}\n";
}

} // namespace tcx::mugraph
