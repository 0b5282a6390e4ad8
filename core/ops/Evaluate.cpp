#include "ops/Evaluate.h"

namespace tcx {

std::vector<TensorType> inferNodeTypes(const Node& node, std::span<const TensorType* const> inputTypes,
                                       std::span<const Tensor* const> inputValues) {
  std::vector<TensorType> outputTypes(node.numOutputs());
  InferContext ctx(node, inputTypes, inputValues, outputTypes);
  node.op().infer(ctx);
  return outputTypes;
}

void inferNode(Node& node) {
  std::vector<const TensorType*> types(node.numInputs(), nullptr);
  std::vector<const Tensor*> values(node.numInputs(), nullptr);
  for (size_t i = 0; i < node.numInputs(); ++i) {
    if (Value* in = node.input(i)) {
      TCX_CHECK(in->hasType(), ErrorKind::ShapeInference, "{}: the type of input '{}' is unknown", node.describe(),
                in->name());
      types[i] = &in->type();
      values[i] = in->isConstant() ? &in->constant() : nullptr;
    }
  }
  std::vector<TensorType> outputTypes = inferNodeTypes(node, types, values);
  for (size_t i = 0; i < node.numOutputs(); ++i) {
    node.output(i)->setType(std::move(outputTypes[i]));
    node.output(i)->markTyped();
  }
}

std::vector<Tensor> evaluateNode(const Node& node, std::span<const Tensor* const> inputs) {
  std::vector<const TensorType*> types(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) types[i] = inputs[i] ? &inputs[i]->type() : nullptr;
  std::vector<TensorType> outputTypes = inferNodeTypes(node, types, inputs);
  std::vector<Tensor> outputs;
  outputs.reserve(outputTypes.size());
  for (TensorType& t : outputTypes) outputs.emplace_back(std::move(t));
  KernelContext ctx(node, inputs, outputs);
  node.op().kernel(ctx);
  return outputs;
}

} // namespace tcx
