#include "ops/Printer.h"
#include "ops/OpDef.h"

#include "ir/Graph.h"

#include <fmt/format.h>
#include <ostream>
#include <sstream>

namespace tcx {

namespace {

std::string operand(const Value* v) {
  if (!v) return "<none>";
  return fmt::format("%{} : {}", v->name(), v->type().toString());
}

} // namespace

void printGraph(const Graph& graph, std::ostream& os) {
  os << "graph " << (graph.name.empty() ? "<unnamed>" : graph.name) << " {\n";
  for (const Value* in : graph.inputs()) os << "  input " << operand(in) << "\n";
  for (const Node* node : graph.nodes()) {
    os << "  ";
    for (size_t i = 0; i < node->numOutputs(); ++i) os << (i ? ", " : "") << "%" << node->output(i)->name();
    os << " = " << node->opType() << "(";
    for (size_t i = 0; i < node->numInputs(); ++i) {
      const Value* in = node->input(i);
      os << (i ? ", " : "") << operand(in);
      if (in && in->isConstant() && in->constant().numElements() <= 8 && !in->producer())
        os << " = const";
    }
    os << ")";
    if (!node->attrs().empty()) {
      os << " {";
      bool first = true;
      for (const auto& [name, attr] : node->attrs().all()) {
        os << (first ? "" : ", ") << name << "=" << attr.toString();
        first = false;
      }
      os << "}";
    }
    os << " :";
    for (size_t i = 0; i < node->numOutputs(); ++i) os << (i ? ", " : " ") << node->output(i)->type().toString();
    if (node->op().isDataMovement()) os << "  // data movement";
    os << "\n";
  }
  for (const Value* out : graph.outputs()) os << "  output " << operand(out) << "\n";
  os << "}\n";
}

std::string graphToString(const Graph& graph) {
  std::ostringstream os;
  printGraph(graph, os);
  return os.str();
}

} // namespace tcx
