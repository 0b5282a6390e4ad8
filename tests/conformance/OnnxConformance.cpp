// onnx_conformance: runs ONNX's official backend node tests through tcx's
// importer and reference executor and compares with the expected outputs.
//
// A test is skipped only when its model uses an op outside tcx's registry
// or a dtype outside tcx's set; the reason names them. Anything else that
// goes wrong (an import error, a kernel error, a wrong value) is a failure.
//
// Usage: onnx_conformance [--verbose] [DIR] [SUBSTRING...]
//   DIR defaults to Debian's libonnx-testdata; SUBSTRINGs filter test names.

#include "exec/ReferenceExecutor.h"
#include "onnx/OnnxImporter.h"
#include "onnx/TensorProto.h"
#include "ops/OpRegistry.h"
#include "support/RunOp.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace tcx;

namespace {

enum class Verdict { Pass, Fail, Skip };

struct Outcome {
  Verdict verdict;
  std::string reason;
};

// ONNX TensorProto element types that map to tcx dtypes.
bool isSupportedElemType(int32_t t) {
  using TP = onnx::TensorProto;
  switch (t) {
  case TP::FLOAT: case TP::FLOAT16: case TP::BFLOAT16: case TP::DOUBLE: case TP::INT64: case TP::INT32:
  case TP::INT8: case TP::UINT8: case TP::BOOL: return true;
  default: return false;
  }
}

// Why the model is outside tcx's scope, or empty if it is inside.
std::string skipReason(const onnx::ModelProto& model) {
  std::set<std::string> ops, types;
  auto checkType = [&](const onnx::TypeProto& type) {
    if (!type.has_tensor_type()) {
      types.insert("non-tensor value");
      return;
    }
    if (!isSupportedElemType(type.tensor_type().elem_type()))
      types.insert(onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type.tensor_type().elem_type())));
  };
  for (const auto& node : model.graph().node()) {
    if (!OpRegistry::instance().find(node.op_type()) || (!node.domain().empty() && node.domain() != "ai.onnx"))
      ops.insert(node.domain().empty() ? node.op_type() : node.domain() + "." + node.op_type());
    for (const auto& attr : node.attribute())
      if (attr.has_t() && !isSupportedElemType(attr.t().data_type()))
        types.insert(onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(attr.t().data_type())));
  }
  for (const auto& v : model.graph().input()) checkType(v.type());
  for (const auto& v : model.graph().output()) checkType(v.type());
  for (const auto& v : model.graph().value_info()) checkType(v.type());
  std::string reason;
  for (const std::string& op : ops) reason += (reason.empty() ? "" : ", ") + ("op " + op);
  for (const std::string& t : types) reason += (reason.empty() ? "" : ", ") + ("dtype " + t);
  return reason;
}

std::vector<fs::path> numberedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (size_t i = 0; fs::exists(dir / fmt::format("{}_{}.pb", prefix, i)); ++i)
    files.push_back(dir / fmt::format("{}_{}.pb", prefix, i));
  return files;
}

// Imports the model. Shapes in node tests often depend on operand values
// that arrive as inputs (Reshape's shape, Slice's starts): bind the integer
// inputs as constants first, and everything only if that is not enough.
Graph importForTest(const fs::path& model, const std::map<std::string, Tensor>& inputs,
                    std::map<std::string, Tensor>& runtimeInputs) {
  auto tryImport = [&](bool bindIntegers, bool bindAll) {
    ImportOptions options;
    runtimeInputs.clear();
    for (const auto& [name, t] : inputs) {
      bool bind = bindAll || (bindIntegers && !isFloatingPoint(t.dtype()));
      (bind ? options.inputBindings[name] : runtimeInputs[name]) = t;
    }
    return importOnnx(model.string(), options);
  };
  for (int attempt = 0;; ++attempt) {
    try {
      return tryImport(attempt >= 1, attempt >= 2);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::DataDependentShape || attempt == 2) throw;
    }
  }
}

Outcome runTest(const fs::path& dir, std::set<std::string>& opsSeen) {
  onnx::ModelProto proto;
  {
    std::ifstream in(dir / "model.onnx", std::ios::binary);
    if (!proto.ParseFromIstream(&in)) return {Verdict::Fail, "model.onnx does not parse"};
  }
  if (std::string reason = skipReason(proto); !reason.empty()) return {Verdict::Skip, reason};
  for (const auto& node : proto.graph().node()) opsSeen.insert(node.op_type());

  std::vector<fs::path> dataSets;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_directory() && entry.path().filename().string().starts_with("test_data_set_"))
      dataSets.push_back(entry.path());
  std::sort(dataSets.begin(), dataSets.end());
  if (dataSets.empty()) return {Verdict::Skip, "no test data"};

  try {
    for (const fs::path& data : dataSets) {
      std::map<std::string, Tensor> inputs;
      std::vector<fs::path> inputFiles = numberedFiles(data, "input");
      for (size_t i = 0; i < inputFiles.size(); ++i) {
        NamedTensor nt = readTensorFile(inputFiles[i].string());
        std::string name = nt.name.empty() ? proto.graph().input(static_cast<int>(i)).name() : nt.name;
        inputs[name] = nt.tensor;
      }
      std::map<std::string, Tensor> runtimeInputs;
      Graph graph = importForTest(dir / "model.onnx", inputs, runtimeInputs);
      ExecutionResult result = ReferenceExecutor(graph).run(runtimeInputs);
      std::vector<fs::path> outputFiles = numberedFiles(data, "output");
      if (outputFiles.size() != result.outputs.size())
        return {Verdict::Fail, fmt::format("{} outputs, expected {}", result.outputs.size(), outputFiles.size())};
      for (size_t i = 0; i < outputFiles.size(); ++i) {
        Tensor expected = readTensorFile(outputFiles[i].string()).tensor;
        // ONNX's backend runner compares with rtol 1e-3, atol 1e-7; f16 and
        // bf16 results carry their own rounding.
        bool half = expected.dtype() == DType::F16 || expected.dtype() == DType::BF16;
        std::string why = test::mismatch(result.outputs[i], expected, half ? 1e-2 : 1e-3, half ? 1e-3 : 1e-7);
        if (!why.empty()) return {Verdict::Fail, fmt::format("{}: output {}: {}", data.filename().string(), i, why)};
      }
    }
  } catch (const Error& e) {
    // Unsupported names what tcx lacks (an attribute value such as
    // training-mode Dropout, a dtype the test data uses): a skip, not a bug.
    if (e.kind() == ErrorKind::Unsupported) return {Verdict::Skip, e.what()};
    return {Verdict::Fail, fmt::format("{}: {}", errorKindName(e.kind()), e.what())};
  } catch (const std::exception& e) {
    return {Verdict::Fail, fmt::format("exception: {}", e.what())};
  }
  return {Verdict::Pass, ""};
}

} // namespace

int main(int argc, char** argv) {
  fs::path root = "/usr/share/libonnx-testdata/data/node";
  std::vector<std::string> filters;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--verbose")
      verbose = true;
    else if (fs::is_directory(arg))
      root = arg;
    else
      filters.push_back(arg);
  }
  if (!fs::is_directory(root)) {
    fmt::print(stderr, "onnx_conformance: {} not found (install libonnx-testdata)\n", root.string());
    return 1;
  }
  std::vector<fs::path> tests;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory() && fs::exists(entry.path() / "model.onnx")) tests.push_back(entry.path());
  std::sort(tests.begin(), tests.end());

  size_t passed = 0, failed = 0, skipped = 0;
  std::map<std::string, size_t> skipCauses;
  std::set<std::string> opsSeen, opsWithFailures;
  for (const fs::path& dir : tests) {
    std::string name = dir.filename().string();
    if (!filters.empty() && std::none_of(filters.begin(), filters.end(), [&](const std::string& f) {
          return name.find(f) != std::string::npos;
        }))
      continue;
    std::set<std::string> ops;
    Outcome o = runTest(dir, ops);
    opsSeen.insert(ops.begin(), ops.end());
    switch (o.verdict) {
    case Verdict::Pass:
      ++passed;
      if (verbose) fmt::print("PASS {}\n", name);
      break;
    case Verdict::Fail:
      ++failed;
      opsWithFailures.insert(ops.begin(), ops.end());
      fmt::print("FAIL {}: {}\n", name, o.reason);
      break;
    case Verdict::Skip:
      ++skipped;
      ++skipCauses[o.reason];
      if (verbose) fmt::print("SKIP {}: {}\n", name, o.reason);
      break;
    }
  }
  if (!skipCauses.empty()) {
    fmt::print("skipped, by cause:\n");
    std::vector<std::pair<std::string, size_t>> causes(skipCauses.begin(), skipCauses.end());
    std::stable_sort(causes.begin(), causes.end(), [](auto& a, auto& b) { return a.second > b.second; });
    for (const auto& [cause, count] : causes) fmt::print("  {:>4}  {}\n", count, cause);
  }
  std::vector<std::string> untested;
  for (const OpDef* op : OpRegistry::instance().all())
    if (!opsSeen.count(op->name)) untested.push_back(op->name);
  if (filters.empty() && !untested.empty())
    fmt::print("supported ops without a node test here: {}\n", fmt::join(untested, ", "));
  fmt::print("{} passed, {} failed, {} skipped\n", passed, failed, skipped);
  return failed == 0 ? 0 : 1;
}
