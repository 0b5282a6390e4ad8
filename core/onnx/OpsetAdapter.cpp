#include "onnx/OpsetAdapter.h"

#include "ir/Dispatch.h"
#include "ops/GraphBuilder.h"
#include "onnx/DeclaredTypes.h"
#include "onnx/ElemType.h"

#include <onnx/defs/schema.h>

#include <iterator>

namespace tcx {

class OpsetAdapter::Rewrite {
public:
  Rewrite(OpsetAdapter& adapter, ImportedNode& node, AdaptedNodes& result)
      : node(node), adapter_(adapter), result_(result) {}

  ImportedNode& node;

  void setOperand(size_t index, const std::string& value) {
    if (node.inputs.size() <= index) node.inputs.resize(index + 1);
    node.inputs[index] = value;
  }
  bool hasOperand(size_t index) const { return index < node.inputs.size() && !node.inputs[index].empty(); }
  // A new constant named after the node and `what`; returns its name.
  std::string constant(const std::string& what, Tensor value) {
    std::string name = freshValue(node.name + "_" + what);
    result_.constants.emplace_back(name, std::move(value));
    return name;
  }
  std::string freshValue(const std::string& base) { return adapter_.valueNames_.fresh(base); }
  std::string freshNode(const std::string& base) { return adapter_.nodeNames_.fresh(base); }
  void emitBefore(ImportedNode helper) { result_.nodes.push_back(std::move(helper)); }
  void emitAfter(ImportedNode helper) { after_.push_back(std::move(helper)); }
  std::vector<ImportedNode> takeAfter() { return std::move(after_); }

  // The declared element type of operand `index`; `what` says who needs it.
  DType operandDType(size_t index, const char* what) {
    std::optional<int32_t> elemType = adapter_.declared_.elemType(node.inputs.at(index));
    TCX_CHECK(elemType, ErrorKind::Unsupported,
              "{} must be converted to operands of the element type of input '{}', which the model does not "
              "declare",
              what, node.inputs.at(index));
    return dtypeOfElemType(*elemType);
  }
  std::optional<int64_t> operandRank(size_t index) { return adapter_.declared_.rank(node.inputs.at(index)); }

private:
  OpsetAdapter& adapter_;
  AdaptedNodes& result_;
  std::vector<ImportedNode> after_;
};

namespace {

using Rewrite = OpsetAdapter::Rewrite;

Tensor int64Vector(const std::vector<int64_t>& values) {
  return Tensor::fromVector<int64_t>({static_cast<int64_t>(values.size())}, values);
}

// Legacy Clip and Pad take float bounds and pad values; their operands have
// the element type of the data, which is floating-point in those opsets.
Tensor floatScalar(DType dtype, float value) {
  return dispatchFloat(dtype, [&]<typename T>() { return Tensor::scalar<T>(static_cast<T>(value)); });
}

void intsAttrToOperand(Rewrite& rw, const char* attr, size_t index) {
  std::optional<std::vector<int64_t>> values = rw.node.attrs.findInts(attr);
  if (!values) return;
  rw.setOperand(index, rw.constant(attr, int64Vector(*values)));
  rw.node.attrs.erase(attr);
}

void floatAttrToOperand(Rewrite& rw, const char* attr, size_t index, const char* what) {
  if (!rw.node.attrs.has(attr)) return;
  float value = rw.node.attrs.getFloat(attr);
  rw.setOperand(index, rw.constant(attr, floatScalar(rw.operandDType(0, what), value)));
  rw.node.attrs.erase(attr);
}

void axesToOperand(Rewrite& rw) { intsAttrToOperand(rw, "axes", 1); }

void splitToOperand(Rewrite& rw) { intsAttrToOperand(rw, "split", 1); }

// Before opset 18, Split without sizes split into as many equal parts as it
// had results; since then it needs num_outputs to say so.
void numOutputsFromResults(Rewrite& rw) {
  if (!rw.hasOperand(1)) rw.node.attrs.set("num_outputs", static_cast<int64_t>(rw.node.outputs.size()));
}

void sliceAttrsToOperands(Rewrite& rw) {
  intsAttrToOperand(rw, "starts", 1);
  intsAttrToOperand(rw, "ends", 2);
  intsAttrToOperand(rw, "axes", 3);
}

void padAttrsToOperands(Rewrite& rw) {
  intsAttrToOperand(rw, "pads", 1);
  // Zero is the default pad value, and needs no operand (nor the data's type).
  if (rw.node.attrs.has("value") && rw.node.attrs.getFloat("value") == 0.0f) rw.node.attrs.erase("value");
  floatAttrToOperand(rw, "value", 2, "Pad's value attribute");
}

void clipAttrsToOperands(Rewrite& rw) {
  floatAttrToOperand(rw, "min", 1, "Clip's min and max attributes");
  floatAttrToOperand(rw, "max", 2, "Clip's min and max attributes");
}

// Dropout's ratio only matters in training; inference passes data through.
void dropRatio(Rewrite& rw) { rw.node.attrs.erase("ratio"); }

void dropSpatial(Rewrite& rw) {
  TCX_CHECK(rw.node.attrs.getInt("spatial", 1) == 1, ErrorKind::Unsupported,
            "BatchNormalization with spatial=0 (per-element statistics, before opset 9) is not supported");
  rw.node.attrs.erase("spatial");
}

// Before opset 13, Softmax, LogSoftmax and Hardmax flattened their input to
// 2-D at `axis` (default 1) and normalised over the second dimension, that
// is, over all dimensions from `axis` on. That is the canonical op over the
// last axis when `axis` is the last one; otherwise it becomes
// Reshape(Op(Flatten(x, axis), axis=1), Shape(x)).
void coerceTo2D(Rewrite& rw) {
  ImportedNode& node = rw.node;
  if (node.inputs.empty() || node.outputs.empty()) return; // the arity check reports it
  int64_t axis = node.attrs.getInt("axis", 1);
  std::optional<int64_t> rank = rw.operandRank(0);
  if (rank && *rank > 0 && normalizeAxis(axis, *rank) == *rank - 1) {
    node.attrs.set("axis", *rank - 1); // explicit: the default changed from 1 to -1
    return;
  }
  const std::string x = node.inputs[0];
  const std::string y = node.outputs[0];
  std::string flat = rw.freshValue(x + "_2d");
  std::string result2d = rw.freshValue(y + "_2d");
  std::string shape = rw.freshValue(x + "_shape");
  rw.emitBefore({rw.freshNode(node.name + "_flatten"), "Flatten", {x}, {flat}, attrs({{"axis", axis}})});
  rw.emitAfter({rw.freshNode(node.name + "_shape"), "Shape", {x}, {shape}, {}});
  rw.emitAfter({rw.freshNode(node.name + "_reshape"), "Reshape", {result2d, shape}, {y}, {}});
  node.inputs[0] = flat;
  node.outputs[0] = result2d;
  node.attrs.set("axis", int64_t{1});
}

// The rules start at opset 7, the first with numpy-style broadcasting. A node
// of an older model reads as opset 7 when its op is the same there, which
// ONNX's schema registry, knowing every version of every op, tells: ONNX's
// own node tests of Elu or Softsign are opset 6 or 1 models.
constexpr int64_t kFirstRuleOpset = 7;

int64_t ruleOpset(const std::string& opType, int64_t opset) {
  if (opset >= kFirstRuleOpset) return opset;
  const onnx::OpSchema* declared = onnx::OpSchemaRegistry::Schema(opType, static_cast<int>(opset));
  TCX_CHECK(declared, ErrorKind::InvalidModel, "{} is not an op of opset {}", opType, opset);
  const onnx::OpSchema* first = onnx::OpSchemaRegistry::Schema(opType, kFirstRuleOpset);
  TCX_CHECK(first, ErrorKind::Unsupported, "{} was removed from ONNX before opset {}", opType, kFirstRuleOpset);
  TCX_CHECK(first->since_version() == declared->since_version(), ErrorKind::Unsupported,
            "{}-{} (opset {}) changed in opset {}: tcx reads ops older than opset {} only where they are unchanged "
            "since",
            opType, declared->since_version(), opset, first->since_version(), kFirstRuleOpset);
  return kFirstRuleOpset;
}

// One entry per op and opset range: a node of `opType` in a model whose
// default-domain opset is below `before` gets `apply`. The entries of an op
// run in table order, oldest range first.
struct Rule {
  const char* opType;
  int64_t before;
  void (*apply)(Rewrite&);
};

constexpr Rule kRules[] = {
    {"BatchNormalization", 9, dropSpatial},
    {"Clip", 11, clipAttrsToOperands},
    {"Dropout", 12, dropRatio},
    {"Hardmax", 13, coerceTo2D},
    {"LogSoftmax", 13, coerceTo2D},
    {"Pad", 11, padAttrsToOperands},
    {"ReduceL1", 18, axesToOperand},
    {"ReduceL2", 18, axesToOperand},
    {"ReduceLogSum", 18, axesToOperand},
    {"ReduceLogSumExp", 18, axesToOperand},
    {"ReduceMax", 18, axesToOperand},
    {"ReduceMean", 18, axesToOperand},
    {"ReduceMin", 18, axesToOperand},
    {"ReduceProd", 18, axesToOperand},
    {"ReduceSum", 13, axesToOperand},
    {"ReduceSumSquare", 18, axesToOperand},
    {"Slice", 10, sliceAttrsToOperands},
    {"Softmax", 13, coerceTo2D},
    {"Split", 13, splitToOperand},
    {"Split", 18, numOutputsFromResults},
    {"Squeeze", 13, axesToOperand},
    {"Unsqueeze", 13, axesToOperand},
};

} // namespace

std::string canonicalOpName(const std::string& opType) {
  // Scatter (opsets 9 to 10, deprecated since) is ScatterElements by its old name.
  return opType == "Scatter" ? "ScatterElements" : opType;
}

AdaptedNodes OpsetAdapter::adapt(ImportedNode node) {
  AdaptedNodes result;
  Rewrite rw(*this, node, result);
  int64_t opset = ruleOpset(node.opType, opsetVersion_);
  for (const Rule& rule : kRules)
    if (node.opType == rule.opType && opset < rule.before) rule.apply(rw);
  result.nodes.push_back(std::move(node));
  std::vector<ImportedNode> after = rw.takeAfter();
  result.nodes.insert(result.nodes.end(), std::make_move_iterator(after.begin()), std::make_move_iterator(after.end()));
  return result;
}

} // namespace tcx
