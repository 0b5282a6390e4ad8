#include "view/TensorNodes.h"

#include "ir/Graph.h"

namespace tcx::view {

NodeStyle tensorStyle(const Value& v) {
  if (v.isGraphInput()) return NodeStyle::GraphInput;
  if (v.isGraphOutput()) return NodeStyle::GraphOutput;
  if (v.isConstant()) return NodeStyle::Constant;
  return NodeStyle::Tensor;
}

namespace {

// Exported tensors are named after their producers' scopes; the last two
// components ("k_cache/ScatterND") tell them apart, the tooltip has the rest.
std::string shortTensorName(const std::string& name) {
  const size_t last = name.rfind('/');
  if (last == std::string::npos || last == 0) return name;
  const size_t before = name.rfind('/', last - 1);
  return before == std::string::npos ? name : name.substr(before + 1);
}

} // namespace

DisplayNode tensorNode(const Value& v, NodeStyle style, const std::string& note) {
  std::string tooltip = v.name() + "\n" + v.type().toString() + "\n" + nodeStyleName(style);
  if (!note.empty()) tooltip += "\n" + note;
  return {.ref = {ItemKind::Value, v.name()}, .label = shortTensorName(v.name()) + "\n" + v.type().toString(), .tooltip = std::move(tooltip), .style = style};
}

} // namespace tcx::view
