#include "mugraph/Json.h"

#include "support/AtomicFile.h"
#include "support/Error.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tcx::mugraph {

using nlohmann::json;

namespace {

constexpr int kFormatVersion = 1;

json refs(const std::vector<TensorRef>& ts) {
  json out = json::array();
  for (TensorRef t : ts) out.push_back({t.op, t.output});
  return out;
}

json descJson(const TensorDesc& d) {
  json j = {{"shape", d.shape}, {"dtype", dtypeName(d.dtype)}};
  if (!d.layout.isRowMajor()) j["layout"] = d.layout.order;
  return j;
}

json opsJson(const OperatorGraph& g);

json opJson(const Operator& op) {
  json j = {{"type", opTypeName(op.type)}};
  if (!op.inputs.empty()) j["inputs"] = refs(op.inputs);
  switch (op.type) {
  case OpType::Input:
    j["name"] = op.name;
    j["shape"] = op.shape;
    j["dtype"] = dtypeName(op.dtype);
    break;
  case OpType::Constant: j["value"] = op.value; break;
  case OpType::InputIterator:
    j["input"] = op.inputIndex;
    j["imap"] = op.imap;
    j["fmap"] = op.fmap;
    break;
  case OpType::OutputAccumulator:
    j["omap"] = op.omap;
    j["fmap"] = op.fmap;
    break;
  case OpType::Sum:
    j["dim"] = op.dim;
    j["group"] = op.group;
    break;
  case OpType::RMSNorm:
  case OpType::ForLoopRms: j["epsilon"] = op.value; break;
  case OpType::Repeat: j["factors"] = op.shape; break;
  case OpType::Reshape: j["shape"] = op.shape; break;
  case OpType::GraphDefined: {
    const PartitionedGraph& b = *op.body;
    json inputs = json::array();
    for (const TensorDesc& d : b.inputs()) inputs.push_back(descJson(d));
    j["body"] = {{"level", levelName(b.level())},
                 {"grid", b.gridDims()},
                 {"forLoop", b.forLoopDims()},
                 {"inputs", inputs},
                 {"ops", opsJson(b)}};
    break;
  }
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::ForLoopSum: break; // no attributes
  }
  json layouts = json::array();
  bool any = false;
  for (const TensorDesc& d : op.outputs) {
    layouts.push_back(d.layout.order);
    any = any || !d.layout.isRowMajor();
  }
  if (any) j["layouts"] = layouts;
  return j;
}

json opsJson(const OperatorGraph& g) {
  json ops = json::array();
  for (const Operator& op : g.ops()) ops.push_back(opJson(op));
  return ops;
}

DType dtypeOf(const json& j) {
  std::string name = j.get<std::string>();
  std::optional<DType> t = parseDType(name);
  TCX_CHECK(t.has_value(), ErrorKind::InvalidModel, "unknown dtype '{}'", name);
  return *t;
}

std::vector<TensorRef> refsOf(const json& j) {
  std::vector<TensorRef> out;
  for (const json& r : j) out.push_back({r.at(0).get<int>(), r.at(1).get<int>()});
  return out;
}

void readOps(OperatorGraph& g, const json& ops, const std::string& where);

Operator opOf(const json& j, const std::string& where) {
  Operator op;
  op.type = parseOpType(j.at("type").get<std::string>());
  if (j.contains("inputs")) op.inputs = refsOf(j["inputs"]);
  switch (op.type) {
  case OpType::Input:
    op.name = j.at("name").get<std::string>();
    op.shape = j.at("shape").get<Shape>();
    op.dtype = dtypeOf(j.at("dtype"));
    break;
  case OpType::Constant: op.value = j.at("value").get<double>(); break;
  case OpType::InputIterator:
    op.inputIndex = j.at("input").get<int>();
    op.imap = j.at("imap").get<DimMap>();
    op.fmap = j.at("fmap").get<DimMap>();
    break;
  case OpType::OutputAccumulator:
    op.omap = j.at("omap").get<DimMap>();
    op.fmap = j.at("fmap").get<DimMap>();
    break;
  case OpType::Sum:
    op.dim = j.at("dim").get<int>();
    op.group = j.at("group").get<int64_t>();
    break;
  case OpType::RMSNorm:
  case OpType::ForLoopRms: op.value = j.at("epsilon").get<double>(); break;
  case OpType::Repeat: op.shape = j.at("factors").get<Shape>(); break;
  case OpType::Reshape: op.shape = j.at("shape").get<Shape>(); break;
  case OpType::GraphDefined: {
    const json& b = j.at("body");
    std::vector<TensorDesc> inputs;
    for (const json& d : b.at("inputs"))
      inputs.push_back({d.at("shape").get<Shape>(), dtypeOf(d.at("dtype")), {d.value("layout", std::vector<int>{})}});
    std::string level = b.at("level").get<std::string>();
    std::shared_ptr<PartitionedGraph> body;
    if (level == "block")
      body = std::make_shared<BlockGraph>(inputs, b.at("grid").get<Shape>(), b.at("forLoop").get<Shape>());
    else if (level == "thread")
      body = std::make_shared<ThreadGraph>(inputs, b.at("grid").get<Shape>(), b.at("forLoop").get<Shape>());
    else
      raise(ErrorKind::InvalidModel, "body level '{}' is neither 'block' nor 'thread'", level);
    readOps(*body, b.at("ops"), where + ".body");
    op.body = std::move(body);
    break;
  }
  case OpType::Matmul:
  case OpType::ConcatMatmul:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::ForLoopSum: break; // no attributes
  }
  return op;
}

void readOps(OperatorGraph& g, const json& ops, const std::string& where) {
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string here = fmt::format("{}.ops[{}]", where, i);
    try {
      g.append(opOf(ops[i], here));
      // Layouts are not inferred; they are restored once the shapes are.
      auto layouts = ops[i].value("layouts", std::vector<std::vector<int>>{});
      for (size_t k = 0; k < layouts.size(); ++k) g.setLayout({static_cast<int>(i), static_cast<int>(k)}, {layouts[k]});
    } catch (const Error& e) {
      throw e.withContext(here);
    }
  }
}

} // namespace

std::string toJson(const KernelGraph& graph) {
  json j = {{"format", "tcx-mugraph"},
            {"version", kFormatVersion},
            {"name", graph.name()},
            {"ops", opsJson(graph)},
            {"outputs", refs(graph.outputs())}};
  return j.dump(1) + "\n";
}

KernelGraph fromJson(std::string_view text, const std::string& source) {
  try {
    json j = json::parse(text);
    TCX_CHECK(j.is_object() && j.value("format", "") == "tcx-mugraph", ErrorKind::InvalidModel,
              "not a μGraph file (no \"format\": \"tcx-mugraph\")");
    int version = j.at("version").get<int>();
    TCX_CHECK(version == kFormatVersion, ErrorKind::InvalidModel, "μGraph format version {} (this tcx reads {})",
              version, kFormatVersion);
    KernelGraph g(j.value("name", ""));
    readOps(g, j.at("ops"), "kernel");
    GraphRewriter::setOutputs(g, refsOf(j.at("outputs")));
    return g;
  } catch (const Error& e) {
    throw Error(ErrorKind::InvalidModel, fmt::format("{}: {}", source, e.what()));
  } catch (const json::exception& e) {
    raise(ErrorKind::InvalidModel, "{}: malformed μGraph JSON: {}", source, e.what());
  }
}

KernelGraph loadMuGraph(const std::string& path) {
  std::ifstream in(path);
  TCX_CHECK(in.good(), ErrorKind::Io, "cannot read '{}'", path);
  std::ostringstream text;
  text << in.rdbuf();
  return fromJson(text.str(), path);
}

void saveMuGraph(const KernelGraph& graph, const std::string& path) { writeFileAtomically(path, toJson(graph)); }

} // namespace tcx::mugraph
