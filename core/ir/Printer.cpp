#include "ir/Printer.h"

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

// DOT identifiers are quoted; quotes and backslashes in ONNX names escaped.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
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
    if (node->isDataMovement()) os << "  // data movement";
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

void writeDot(const Graph& graph, std::ostream& os) {
  os << "digraph " << quoted(graph.name.empty() ? "tcx" : graph.name) << " {\n";
  os << "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
  for (const Value* in : graph.inputs())
    os << "  " << quoted("in:" + in->name()) << " [shape=ellipse, label=" << quoted(in->name() + "\n" + in->type().toString())
       << "];\n";
  for (const Node* node : graph.nodes()) {
    os << "  " << quoted("op:" + node->name()) << " [shape=box, style=\"rounded,filled\", fillcolor="
       << (node->isDataMovement() ? "\"#ffd8a8\"" : "\"#d0ebff\"") << ", label=" << quoted(node->opType() + "\n" + node->name())
       << "];\n";
    for (const Value* in : node->inputs()) {
      if (!in || (in->isConstant() && !in->producer())) continue;
      std::string from = in->producer() ? "op:" + in->producer()->name() : "in:" + in->name();
      os << "  " << quoted(from) << " -> " << quoted("op:" + node->name()) << " [label=" << quoted(in->type().toString())
         << "];\n";
    }
  }
  for (const Value* out : graph.outputs()) {
    os << "  " << quoted("out:" + out->name()) << " [shape=ellipse, label=" << quoted(out->name() + "\n" + out->type().toString())
       << "];\n";
    std::string from = out->producer() ? "op:" + out->producer()->name() : "in:" + out->name();
    os << "  " << quoted(from) << " -> " << quoted("out:" + out->name()) << ";\n";
  }
  os << "}\n";
}

} // namespace tcx
