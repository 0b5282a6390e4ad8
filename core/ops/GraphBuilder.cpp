#include "ops/GraphBuilder.h"

#include "ops/Verifier.h"
#include "ops/Evaluate.h"
#include "ops/OpRegistry.h"

namespace tcx {

GraphBuilder::GraphBuilder(std::string name) { graph_.name = std::move(name); }

Value* GraphBuilder::input(const std::string& name, DType dtype, Shape shape) {
  return graph_.addInput(name, TensorType{dtype, std::move(shape)});
}

Value* GraphBuilder::constant(const std::string& name, Tensor value) { return graph_.addConstant(name, std::move(value)); }

Value* GraphBuilder::ints(const std::string& name, std::vector<int64_t> values) {
  Shape shape{static_cast<int64_t>(values.size())};
  return constant(name, Tensor::fromVector<int64_t>(shape, values));
}

std::vector<Value*> GraphBuilder::ops(const std::string& opType, const std::vector<Value*>& inputs, AttrMap attributes,
                                      size_t numOutputs, const std::string& nodeName) {
  std::string name = nodeName.empty() ? graph_.uniqueValueName(opType) : nodeName;
  std::vector<std::string> outputNames;
  for (size_t i = 0; i < numOutputs; ++i) outputNames.push_back(numOutputs == 1 ? name : name + "_" + std::to_string(i));
  Node* node = addNode(graph_, opType, inputs, outputNames, std::move(attributes), name);
  inferNode(*node);
  return node->outputs();
}

Value* GraphBuilder::op(const std::string& opType, const std::vector<Value*>& inputs, AttrMap attributes,
                        const std::string& nodeName) {
  return ops(opType, inputs, std::move(attributes), 1, nodeName).front();
}

void GraphBuilder::output(Value* value) { graph_.markOutput(value); }

Graph GraphBuilder::finish() {
  graph_.topologicalSort();
  verifyGraph(graph_);
  return std::move(graph_);
}

AttrMap attrs(std::initializer_list<std::pair<std::string, Attribute>> list) {
  AttrMap m;
  for (const auto& [name, value] : list) m.set(name, value);
  return m;
}

} // namespace tcx
