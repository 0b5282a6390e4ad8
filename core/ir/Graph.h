#pragma once
// The computation graph: Values (tensors, typed), Nodes (ops) and the Graph
// that owns them. Modelled on MLIR's SSA form: every Value has at most one
// producer, a use list, and a static TensorType; constants are Values that
// carry a Tensor; graph inputs and outputs are marked on their Values.
//
// Nodes are kept in a vector; topologicalSort() orders it and raises on a
// cycle. Passes that add or erase nodes sort again before handing the graph
// on (the verifier checks the order).

#include "ir/Attribute.h"
#include "ir/Tensor.h"
#include "ir/TensorType.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {

struct OpDef;
class Node;

struct Use {
  Node* user;
  unsigned operand;
  bool operator==(const Use&) const = default;
};

class Value {
public:
  const std::string& name() const { return name_; }
  const TensorType& type() const { return type_; }
  void setType(TensorType type) { type_ = std::move(type); }
  // Whether the type has been set (by import or inference).
  bool hasType() const { return typed_; }
  void markTyped() { typed_ = true; }

  Node* producer() const { return producer_; }
  unsigned producerResult() const { return producerResult_; }
  const std::vector<Use>& uses() const { return uses_; }

  bool isConstant() const { return constant_.has_value(); }
  const Tensor& constant() const { return *constant_; }
  void setConstant(Tensor value);

  bool isGraphInput() const { return graphInput_; }
  bool isGraphOutput() const { return graphOutput_; }

private:
  friend class Graph;
  friend class Node;
  Value(std::string name, TensorType type, bool typed)
      : name_(std::move(name)), type_(std::move(type)), typed_(typed) {}

  std::string name_;
  TensorType type_;
  bool typed_ = false;
  Node* producer_ = nullptr;
  unsigned producerResult_ = 0;
  std::vector<Use> uses_;
  std::optional<Tensor> constant_;
  bool graphInput_ = false;
  bool graphOutput_ = false;
};

class Node {
public:
  const std::string& name() const { return name_; }
  const std::string& opType() const { return opType_; }
  const OpDef& op() const { return *op_; }

  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  size_t numInputs() const { return inputs_.size(); }
  size_t numOutputs() const { return outputs_.size(); }
  // Input i, or nullptr when an optional input is omitted (or past the end).
  Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  Value* output(size_t i) const { return outputs_.at(i); }

  // Replaces operand i (which may be past the end: inputs are then padded
  // with omitted ones), keeping use lists right.
  void setInput(size_t i, Value* value);

  AttrMap& attrs() { return attrs_; }
  const AttrMap& attrs() const { return attrs_; }

  // "node 'name' (Op)": how errors refer to a node.
  std::string describe() const;

private:
  friend class Graph;
  Node(std::string name, std::string opType, const OpDef* op) : name_(std::move(name)), opType_(std::move(opType)), op_(op) {}

  std::string name_;
  std::string opType_;
  const OpDef* op_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  AttrMap attrs_;
};

class Graph {
public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  std::string name;

  // A new graph input of a known type.
  Value* addInput(const std::string& name, TensorType type);
  // A new constant value (an initializer).
  Value* addConstant(const std::string& name, Tensor value);
  // A new node of the op `op`, whose name is `opType` (the IR holds OpDef
  // opaque: the registry sits above it, and `addNode(Graph&, opType, ...)` in
  // ops/OpRegistry.h looks both up), with the given operands (nullptr for an
  // omitted optional input) and fresh, untyped results named `outputNames`
  // (made unique). The node is named `nodeName`, or `<opType>_<n>` when that
  // is empty, with a suffix if another node has the name already: views and
  // reports find nodes by name.
  Node* addNode(const OpDef& op, const std::string& opType, const std::vector<Value*>& inputs,
                const std::vector<std::string>& outputNames, AttrMap attrs = {},
                const std::string& nodeName = {});
  void markOutput(Value* value);
  void setOutputs(const std::vector<Value*>& outputs);

  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  // Nodes in their current order (topological after topologicalSort()).
  std::vector<Node*> nodes() const;
  size_t numNodes() const { return nodes_.size(); }
  std::vector<Value*> values() const;

  Value* findValue(const std::string& name) const;
  Node* findNode(const std::string& name) const;

  // Redirects every use of `from` (and its graph-output mark) to `to`. Where
  // both are graph outputs, `to` stays in its own place only: a value is an
  // output once.
  void replaceAllUsesWith(Value* from, Value* to);
  // Erases a node of this graph whose results have no uses and are not graph
  // outputs.
  void eraseNode(Node* node);
  // Erases values that no node produces or uses and that are neither inputs
  // nor outputs (constants left behind by folding, for instance).
  void eraseUnusedValues();

  // Orders nodes so that each comes after the producers of its inputs;
  // raises InvalidModel naming the nodes on a cycle.
  void topologicalSort();

  // A fresh value name derived from `base`.
  std::string uniqueValueName(const std::string& base);

private:
  Value* newValue(const std::string& name, TensorType type, bool typed);

  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Value>> values_;
  std::unordered_map<std::string, Value*> valueByName_;
  std::unordered_map<std::string, Node*> nodeByName_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  size_t nameCounter_ = 0;
  size_t nodeNameCounter_ = 0;
};

} // namespace tcx
