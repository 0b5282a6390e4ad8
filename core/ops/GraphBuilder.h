#pragma once
// Builds a Graph op by op, inferring each result's type as it goes. Used by
// the sample generator and by tests that need graphs without ONNX files.

#include "ir/Graph.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tcx {

class GraphBuilder {
public:
  explicit GraphBuilder(std::string name);

  Value* input(const std::string& name, DType dtype, Shape shape);
  Value* constant(const std::string& name, Tensor value);
  // A 1-D i64 constant: shapes, axes, starts and ends.
  Value* ints(const std::string& name, std::vector<int64_t> values);

  // Adds `opType` with `inputs` (nullptr for omitted optional ones) and
  // returns its `numOutputs` results, typed. Result names default to the
  // node name (with an index suffix for several results).
  std::vector<Value*> ops(const std::string& opType, const std::vector<Value*>& inputs, AttrMap attrs,
                          size_t numOutputs, const std::string& nodeName = {});
  Value* op(const std::string& opType, const std::vector<Value*>& inputs, AttrMap attrs = {},
            const std::string& nodeName = {});

  void output(Value* value);
  // The finished, verified graph; the builder is empty afterwards.
  Graph finish();

  Graph& graph() { return graph_; }

private:
  Graph graph_;
};

// Attribute maps written inline: attrs({{"axis", 1}, {"perm", std::vector<int64_t>{0, 2, 1}}}).
AttrMap attrs(std::initializer_list<std::pair<std::string, Attribute>> list);

} // namespace tcx
