#include "ir/Graph.h"


#include <algorithm>
#include <fmt/format.h>
#include <unordered_set>

namespace tcx {

void Value::setConstant(Tensor value) {
  type_ = value.type();
  typed_ = true;
  constant_ = std::move(value);
}


std::string Node::describe() const { return fmt::format("node '{}' ({})", name_, opType_); }

void Node::setInput(size_t i, Value* value) {
  if (i >= inputs_.size()) inputs_.resize(i + 1, nullptr);
  if (Value* old = inputs_[i]) {
    auto& uses = old->uses_;
    uses.erase(std::find(uses.begin(), uses.end(), Use{this, static_cast<unsigned>(i)}));
  }
  inputs_[i] = value;
  if (value) value->uses_.push_back(Use{this, static_cast<unsigned>(i)});
}

Value* Graph::newValue(const std::string& name, TensorType type, bool typed) {
  std::string unique = valueByName_.count(name) ? uniqueValueName(name) : name;
  values_.push_back(std::unique_ptr<Value>(new Value(unique, std::move(type), typed)));
  Value* v = values_.back().get();
  valueByName_[unique] = v;
  return v;
}

std::string Graph::uniqueValueName(const std::string& base) {
  std::string name;
  do {
    name = fmt::format("{}_{}", base.empty() ? "t" : base, nameCounter_++);
  } while (valueByName_.count(name));
  return name;
}

Value* Graph::addInput(const std::string& name, TensorType type) {
  TCX_CHECK(!valueByName_.count(name), ErrorKind::InvalidModel, "graph input '{}' is defined twice", name);
  Value* v = newValue(name, std::move(type), true);
  v->graphInput_ = true;
  inputs_.push_back(v);
  return v;
}

Value* Graph::addConstant(const std::string& name, Tensor value) {
  Value* v = newValue(name, value.type(), true);
  v->setConstant(std::move(value));
  return v;
}

Node* Graph::addNode(const OpDef& op, const std::string& opType, const std::vector<Value*>& inputs,
                     const std::vector<std::string>& outputNames, AttrMap attrs, const std::string& nodeName) {
  std::string name = nodeName;
  while (name.empty() || nodeByName_.count(name))
    name = fmt::format("{}_{}", nodeName.empty() ? opType : nodeName, nodeNameCounter_++);
  nodes_.push_back(std::unique_ptr<Node>(new Node(name, opType, &op)));
  Node* node = nodes_.back().get();
  nodeByName_[name] = node;
  node->attrs_ = std::move(attrs);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i]) node->setInput(i, inputs[i]);
  node->inputs_.resize(inputs.size(), nullptr);
  for (size_t i = 0; i < outputNames.size(); ++i) {
    Value* out = newValue(outputNames[i].empty() ? name : outputNames[i], TensorType{}, false);
    out->producer_ = node;
    out->producerResult_ = static_cast<unsigned>(i);
    node->outputs_.push_back(out);
  }
  return node;
}

void Graph::markOutput(Value* value) {
  if (!value->graphOutput_) outputs_.push_back(value);
  value->graphOutput_ = true;
}

void Graph::setOutputs(const std::vector<Value*>& outputs) {
  for (Value* v : outputs_) v->graphOutput_ = false;
  outputs_.clear();
  for (Value* v : outputs) markOutput(v);
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

std::vector<Value*> Graph::values() const {
  std::vector<Value*> out;
  out.reserve(values_.size());
  for (const auto& v : values_) out.push_back(v.get());
  return out;
}

Value* Graph::findValue(const std::string& name) const {
  auto it = valueByName_.find(name);
  return it == valueByName_.end() ? nullptr : it->second;
}

Node* Graph::findNode(const std::string& name) const {
  auto it = nodeByName_.find(name);
  return it == nodeByName_.end() ? nullptr : it->second;
}

void Graph::replaceAllUsesWith(Value* from, Value* to) {
  if (from == to) return;
  std::vector<Use> uses = from->uses_;
  for (const Use& u : uses) u.user->setInput(u.operand, to);
  if (from->graphOutput_) {
    if (to->graphOutput_)
      std::erase(outputs_, from);
    else
      std::replace(outputs_.begin(), outputs_.end(), from, to);
    from->graphOutput_ = false;
    to->graphOutput_ = true;
  }
}

void Graph::eraseNode(Node* node) {
  auto it = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& p) { return p.get() == node; });
  TCX_CHECK(it != nodes_.end(), ErrorKind::Internal, "erasing {}, which is not a node of this graph", node->describe());
  for (Value* out : node->outputs_)
    TCX_CHECK(out->uses_.empty() && !out->graphOutput_, ErrorKind::Internal,
              "erasing {} whose result '{}' is still used", node->describe(), out->name());
  for (size_t i = 0; i < node->inputs_.size(); ++i) node->setInput(i, nullptr);
  for (Value* out : node->outputs_) out->producer_ = nullptr;
  nodeByName_.erase(node->name());
  nodes_.erase(it);
}

void Graph::eraseUnusedValues() {
  std::erase_if(values_, [&](const std::unique_ptr<Value>& v) {
    bool dead = !v->producer_ && v->uses_.empty() && !v->graphInput_ && !v->graphOutput_;
    if (dead) valueByName_.erase(v->name());
    return dead;
  });
}

void Graph::topologicalSort() {
  // Kahn's algorithm, stable: among ready nodes the earliest keeps its place.
  std::unordered_map<const Node*, size_t> pending;
  for (const auto& n : nodes_) {
    std::unordered_set<const Node*> producers;
    for (Value* in : n->inputs_)
      if (in && in->producer_) producers.insert(in->producer_);
    pending[n.get()] = producers.size();
  }
  std::vector<std::unique_ptr<Node>> sorted;
  sorted.reserve(nodes_.size());
  std::vector<bool> placed(nodes_.size(), false);
  bool progress = true;
  while (sorted.size() < nodes_.size() && progress) {
    progress = false;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (placed[i] || pending[nodes_[i].get()] != 0) continue;
      placed[i] = true;
      progress = true;
      Node* n = nodes_[i].get();
      std::unordered_set<const Node*> released;
      for (Value* out : n->outputs_)
        for (const Use& u : out->uses_)
          if (released.insert(u.user).second) --pending[u.user];
      sorted.push_back(std::move(nodes_[i]));
    }
  }
  if (sorted.size() < nodes_.size()) {
    std::vector<std::string> cyclic;
    for (size_t i = 0; i < nodes_.size(); ++i)
      if (!placed[i]) cyclic.push_back(nodes_[i]->describe());
    std::string list;
    for (size_t i = 0; i < cyclic.size() && i < 5; ++i) list += (i ? ", " : "") + cyclic[i];
    // Put the nodes back so the graph stays whole for the caller.
    for (size_t i = 0; i < nodes_.size(); ++i)
      if (!placed[i]) sorted.push_back(std::move(nodes_[i]));
    nodes_ = std::move(sorted);
    raise(ErrorKind::InvalidModel, "the graph has a cycle through {}{}", list,
          cyclic.size() > 5 ? fmt::format(" and {} more", cyclic.size() - 5) : "");
  }
  nodes_ = std::move(sorted);
}

} // namespace tcx
