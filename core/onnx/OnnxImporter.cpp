#include "onnx/OnnxImporter.h"

#include "ops/Verifier.h"
#include "onnx/DeclaredTypes.h"
#include "onnx/Files.h"
#include "onnx/NodeImport.h"
#include "onnx/OpsetAdapter.h"
#include "onnx/TensorProto.h"
#include "onnx/ValueTypes.h"
#include "ops/OpRegistry.h"
#include "passes/GraphPasses.h"

#include <onnx/onnx_pb.h>

#include <fmt/format.h>
#include <set>

namespace tcx {

namespace {

// The default domain's opsets that tcx reads (before 7, only ops unchanged
// since: see OpsetAdapter).
constexpr int64_t kMaxOpset = 21;

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

onnx::ModelProto parseModel(const std::string& bytes) {
  onnx::ModelProto model;
  TCX_CHECK(model.ParseFromString(bytes), ErrorKind::InvalidModel,
            "not a valid ONNX model (it does not parse as a ModelProto)");
  TCX_CHECK(model.has_graph(), ErrorKind::InvalidModel, "not a valid ONNX model (it has no graph)");
  return model;
}

int64_t defaultOpset(const onnx::ModelProto& model) {
  std::optional<int64_t> version;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import())
    if (isDefaultDomain(opset.domain())) version = opset.version();
  TCX_CHECK(version, ErrorKind::InvalidModel, "the model imports no version of the default ONNX domain");
  TCX_CHECK(*version >= 1 && *version <= kMaxOpset, ErrorKind::Unsupported,
            "opset {} of the default ONNX domain is not supported (tcx reads opsets up to {})", *version, kMaxOpset);
  return *version;
}

// Builds the Graph of one model. Values keep their ONNX names; helper values
// and nodes that the opset adaptation adds get fresh ones.
class ModelImporter {
public:
  ModelImporter(const onnx::ModelProto& model, std::string baseDir, const ImportOptions& options)
      : proto_(model.graph()), baseDir_(std::move(baseDir)), options_(options), declared_(model),
        adapter_(defaultOpset(model), valueNames_, nodeNames_, declared_) {}

  Graph run() {
    graph_.name = proto_.name();
    reserveNames();
    importInputs();
    importInitializers();
    importNodes();
    importOutputs();
    graph_.topologicalSort();
    graphCleanupPipeline(FoldOptions{.fold = options_.foldConstants}).run(graph_, options_.timings);
    checkOutputTypes();
    verifyGraph(graph_);
    return std::move(graph_);
  }

private:
  // Fresh names must not collide with any name of the file, including the
  // ones not defined yet when the fresh name is made.
  void reserveNames() {
    for (const onnx::ValueInfoProto& info : proto_.input()) valueNames_.insert(info.name());
    for (const onnx::TensorProto& init : proto_.initializer()) valueNames_.insert(init.name());
    for (const onnx::NodeProto& node : proto_.node())
      for (const std::string& out : node.output()) valueNames_.insert(out);
  }

  void importInputs() {
    std::set<std::string> initializers;
    for (const onnx::TensorProto& init : proto_.initializer()) initializers.insert(init.name());
    std::set<std::string> inputs;
    for (const onnx::ValueInfoProto& info : proto_.input()) {
      // Before IR version 4 initializers were listed as inputs too.
      if (initializers.count(info.name())) continue;
      inputs.insert(info.name());
      auto bound = options_.inputBindings.find(info.name());
      if (bound != options_.inputBindings.end()) {
        checkInputBinding(info, bound->second, options_.dimBindings);
        checkUndefined(info.name());
        graph_.addConstant(info.name(), bound->second);
      } else {
        TensorType type = inputType(info, options_.dimBindings);
        checkUndefined(info.name());
        graph_.addInput(info.name(), std::move(type));
      }
    }
    for (const auto& [name, value] : options_.inputBindings)
      TCX_CHECK(inputs.count(name), ErrorKind::InvalidArgument, "a tensor is bound to '{}', which is no graph input",
                name);
  }

  void importInitializers() {
    TCX_CHECK(proto_.sparse_initializer_size() == 0, ErrorKind::Unsupported, "sparse initializers are not supported");
    for (const onnx::TensorProto& init : proto_.initializer()) {
      checkUndefined(init.name());
      graph_.addConstant(init.name(), tensorFromProto(init, baseDir_));
    }
  }

  // Nodes are created first and wired second, so that the file's node order
  // need not be topological; a cycle shows up when the graph is sorted.
  void importNodes() {
    std::vector<std::string> names = nodeNamesOf();
    std::vector<std::pair<Node*, std::vector<std::string>>> operands;
    for (int i = 0; i < proto_.node_size(); ++i) {
      const onnx::NodeProto& proto = proto_.node(i);
      try {
        for (ImportedNode& node : adapt(proto, names[i])) operands.emplace_back(createNode(std::move(node)));
      } catch (const Error& e) {
        throw e.withContext(fmt::format("node '{}' ({})", names[i], proto.op_type()));
      }
    }
    for (auto& [node, inputs] : operands) {
      try {
        for (size_t i = 0; i < inputs.size(); ++i) {
          if (inputs[i].empty()) continue;
          Value* value = graph_.findValue(inputs[i]);
          TCX_CHECK(value, ErrorKind::InvalidModel, "input '{}' is not defined", inputs[i]);
          node->setInput(i, value);
        }
      } catch (const Error& e) {
        throw e.withContext(node->describe());
      }
    }
  }

  // Unnamed nodes are called after their op and position; duplicate names
  // get a suffix.
  std::vector<std::string> nodeNamesOf() {
    std::vector<std::string> names(proto_.node_size());
    for (int i = 0; i < proto_.node_size(); ++i)
      if (!proto_.node(i).name().empty() && nodeNames_.insert(proto_.node(i).name())) names[i] = proto_.node(i).name();
    for (int i = 0; i < proto_.node_size(); ++i) {
      const onnx::NodeProto& node = proto_.node(i);
      if (names[i].empty())
        names[i] = nodeNames_.fresh(node.name().empty() ? fmt::format("{}_{}", node.op_type(), i) : node.name());
    }
    return names;
  }

  std::vector<ImportedNode> adapt(const onnx::NodeProto& proto, const std::string& name) {
    TCX_CHECK(isDefaultDomain(proto.domain()), ErrorKind::Unsupported,
              "domain '{}' is not supported (tcx supports the default ONNX domain only)", proto.domain());
    std::string opType = canonicalOpName(proto.op_type());
    TCX_CHECK(OpRegistry::instance().find(opType), ErrorKind::Unsupported, "op '{}' is not supported by tcx",
              proto.op_type());
    ImportedNode node = readNode(proto, name, baseDir_, valueNames_);
    node.opType = opType;
    AdaptedNodes adapted = adapter_.adapt(std::move(node));
    for (auto& [constantName, value] : adapted.constants) graph_.addConstant(constantName, std::move(value));
    return std::move(adapted.nodes);
  }

  std::pair<Node*, std::vector<std::string>> createNode(ImportedNode node) {
    // Helper nodes of the opset adaptation are looked up here too.
    const OpDef* op = OpRegistry::instance().find(node.opType);
    TCX_CHECK(op, ErrorKind::Unsupported, "op '{}' is not supported by tcx", node.opType);
    checkAgainstOpDef(node, *op);
    for (const std::string& out : node.outputs) checkUndefined(out);
    Node* created = graph_.addNode(*op, node.opType, {}, node.outputs, std::move(node.attrs), node.name);
    return {created, std::move(node.inputs)};
  }

  void importOutputs() {
    for (const onnx::ValueInfoProto& info : proto_.output()) {
      Value* value = graph_.findValue(info.name());
      TCX_CHECK(value, ErrorKind::InvalidModel, "graph output '{}' is not defined", info.name());
      graph_.markOutput(value);
    }
  }

  void checkOutputTypes() {
    for (const onnx::ValueInfoProto& info : proto_.output())
      checkOutputType(info, *graph_.findValue(info.name()), options_.dimBindings);
  }

  // ONNX values are defined once (SSA), where the Graph would rename a
  // second definition silently.
  void checkUndefined(const std::string& name) const {
    TCX_CHECK(!graph_.findValue(name), ErrorKind::InvalidModel, "value '{}' is defined twice", name);
  }

  const onnx::GraphProto& proto_;
  std::string baseDir_;
  const ImportOptions& options_;
  NameTable valueNames_;
  NameTable nodeNames_;
  DeclaredTypes declared_;
  OpsetAdapter adapter_;
  Graph graph_;
};

} // namespace

Graph importOnnxBytes(const std::string& bytes, const std::string& displayName, const ImportOptions& options) {
  try {
    onnx::ModelProto model = parseModel(bytes);
    return ModelImporter(model, parentFolder(displayName), options).run();
  } catch (const Error& e) {
    throw e.withContext(displayName);
  }
}

Graph importOnnx(const std::string& path, const ImportOptions& options) {
  return importOnnxBytes(readFileBytes(path), path, options);
}

} // namespace tcx
