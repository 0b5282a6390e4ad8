#pragma once
// Helpers for the ONNX layer's tests: hand-made models, a scratch folder,
// and running an imported graph node by node.

#include "ir/Attribute.h"
#include "ir/Graph.h"
#include "onnx/OnnxImporter.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tcx::test {

// A declared dimension: a size, or a symbolic name.
struct Dim {
  Dim(int64_t size) : size(size) {}
  Dim(const char* param) : param(param) {}
  int64_t size = -1;
  std::string param;
};

// An ONNX model built in code.
class OnnxModel {
public:
  explicit OnnxModel(int64_t opset = 18);

  void input(const std::string& name, DType dtype, const std::vector<Dim>& dims);
  void output(const std::string& name, DType dtype, const std::vector<Dim>& dims);
  void initializer(const std::string& name, const Tensor& value);
  onnx::NodeProto& node(const std::string& opType, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = {});

  onnx::ModelProto& proto() { return proto_; }
  std::string bytes() const { return proto_.SerializeAsString(); }
  // Imports the model as if read from "model.onnx".
  Graph import(const ImportOptions& options = {}) const;

private:
  onnx::ModelProto proto_;
};

void addAttr(onnx::NodeProto& node, const std::string& name, Attribute value);

// A fresh, empty folder, removed with everything in it at the end of scope.
class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

void writeBytes(const std::string& path, const std::string& bytes);

// Runs every node of `graph` with its CPU kernel; returns the graph outputs.
std::vector<Tensor> runGraph(const Graph& graph, const std::map<std::string, Tensor>& inputs = {});

// Runs `f` and requires an Error of `kind` whose message contains every
// fragment (the file, node and op it names, a key phrase).
void requireError(const std::function<void()>& f, ErrorKind kind, const std::vector<std::string>& fragments);

// The node-test folder of ONNX's test data, e.g. "test_reshape_zero_dim".
std::string nodeTestDir(const std::string& test);
// Its test_data_set_0 input or output file `index` (input_0.pb, ...).
Tensor nodeTestTensor(const std::string& test, const std::string& kind, int index);

} // namespace tcx::test
