#include "ops/Verifier.h"

#include "ir/Graph.h"
#include "ops/Evaluate.h"

#include <unordered_set>

namespace tcx {

void verifyGraph(const Graph& graph) {
  std::unordered_set<const Value*> defined;
  for (const Value* v : graph.values()) {
    int definitions = (v->producer() ? 1 : 0) + (v->isGraphInput() ? 1 : 0) + (v->isConstant() ? 1 : 0);
    TCX_CHECK(definitions <= 1, ErrorKind::InvalidModel, "value '{}' is defined {} times", v->name(), definitions);
    if (definitions == 1 && !v->producer()) defined.insert(v);
  }
  for (const Node* node : graph.nodes()) {
    std::vector<const TensorType*> types;
    std::vector<const Tensor*> values;
    for (size_t i = 0; i < node->numInputs(); ++i) {
      const Value* in = node->input(i);
      TCX_CHECK(!in || defined.count(in), ErrorKind::InvalidModel, "{}: input {} ('{}') is not defined before it",
                node->describe(), i, in ? in->name() : "");
      types.push_back(in ? &in->type() : nullptr);
      values.push_back(in && in->isConstant() ? &in->constant() : nullptr);
    }
    std::vector<TensorType> inferred = inferNodeTypes(*node, types, values);
    for (size_t i = 0; i < node->numOutputs(); ++i) {
      const Value* out = node->output(i);
      TCX_CHECK(out->producer() == node, ErrorKind::InvalidModel, "{}: result '{}' has another producer",
                node->describe(), out->name());
      TCX_CHECK(out->type() == inferred[i], ErrorKind::ShapeInference,
                "{}: result '{}' is recorded as {} but the op infers {}", node->describe(), out->name(),
                out->type().toString(), inferred[i].toString());
      defined.insert(out);
    }
  }
  for (const Value* out : graph.outputs())
    TCX_CHECK(defined.count(out), ErrorKind::InvalidModel, "graph output '{}' is not defined", out->name());
}

} // namespace tcx
