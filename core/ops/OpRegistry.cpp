#include "ops/OpRegistry.h"

#include "index/MappingFunction.h"
#include "ir/Graph.h"
#include "ops/Registration.h"

#include <bit>
#include <cstdint>
#include <fmt/format.h>

namespace tcx {

const char* opClassName(OpClass c) {
  switch (c) {
  case OpClass::DataMovement: return "data movement";
  case OpClass::Elementwise: return "elementwise";
  case OpClass::Reduction: return "reduction";
  case OpClass::Normalization: return "normalization";
  case OpClass::Contraction: return "contraction";
  case OpClass::Pooling: return "pooling";
  case OpClass::Metadata: return "metadata";
  }
  return "?";
}

const AttrSpec* OpDef::findAttr(const std::string& attr) const {
  for (const AttrSpec& spec : attributes)
    if (spec.name == attr) return &spec;
  return nullptr;
}

const OpRegistry& OpRegistry::instance() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerMovementOps(r);
    registerElementwiseOps(r);
    registerReductionOps(r);
    registerNnOps(r);
    registerMetadataOps(r);
    return r;
  }();
  return registry;
}

const OpDef* OpRegistry::find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& [name, def] : ops_) out.push_back(def.get());
  return out;
}

void OpRegistry::add(OpDef def) {
  TCX_CHECK(!ops_.count(def.name), ErrorKind::Internal, "op {} registered twice", def.name);
  TCX_CHECK(def.infer && def.kernel, ErrorKind::Internal, "op {} lacks infer or kernel", def.name);
  std::string name = def.name;
  ops_.emplace(name, std::make_unique<OpDef>(std::move(def)));
}

OpDef& OpRegistry::edit(const std::string& name) {
  auto it = ops_.find(name);
  TCX_CHECK(it != ops_.end(), ErrorKind::Internal, "op {} is not registered", name);
  return *it->second;
}

Node* addNode(Graph& graph, const std::string& opType, const std::vector<Value*>& inputs,
              const std::vector<std::string>& outputNames, AttrMap attrs, const std::string& nodeName) {
  const OpDef* op = OpRegistry::instance().find(opType);
  TCX_CHECK(op != nullptr, ErrorKind::Unsupported, "node '{}': op '{}' is not supported by tcx",
            nodeName.empty() ? opType : nodeName, opType);
  return graph.addNode(*op, opType, inputs, outputNames, std::move(attrs), nodeName);
}

CudaExprFn cudaCall(std::string function) {
  return [function = std::move(function)](const CudaExprContext& ctx) {
    std::string args;
    for (const std::string& operand : ctx.operands) {
      if (operand.empty()) continue;
      if (!args.empty()) args += ", ";
      args += operand;
    }
    return "tcx::op::" + function + "(" + args + ")";
  };
}

std::string cudaPieceCondition(const MappingPiece& piece, const std::vector<std::string>& index,
                               const std::vector<int64_t>& extents) {
  std::string condition;
  for (const IndexConstraint& c : piece.where)
    condition += fmt::format("{}tcx::inRange({}, {}LL, {}LL)", condition.empty() ? "" : " && ",
                             c.expr.toString(index, extents), c.lo, c.hi);
  return condition;
}

std::string cudaRowElement(const CudaRowForm& form, const std::vector<std::string>& outIndex) {
  std::vector<std::string> index = outIndex;
  std::string loops;
  for (size_t d : form.rowDims) {
    index[d] = fmt::format("_n{}", d);
    loops += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", index[d], form.shape[d]);
  }
  std::string code = form.types + fmt::format("const long long _count = {};\n", form.rowCount());
  for (const CudaRowStatistic& s : form.statistics)
    code += fmt::format("{type} {name};\n{{\n  {type} _acc = {init};\n  {loops}{{\n    const _T _v = {value};\n"
                        "    const {type} _m = {map};\n    _acc = {fold};\n  }}\n  {name} = {finish};\n}}\n",
                        fmt::arg("type", s.type), fmt::arg("name", s.name), fmt::arg("init", s.init),
                        fmt::arg("loops", loops), fmt::arg("value", form.valueAt(index)), fmt::arg("map", s.map),
                        fmt::arg("fold", s.fold), fmt::arg("finish", s.finish));
  return code + form.element;
}

void setCudaRowForm(OpDef& op, CudaRowFormFn row) {
  op.cudaElement = [row](const CudaElementContext& ctx) { return cudaRowElement(row(ctx), ctx.outIndex); };
  op.cudaRow = std::move(row);
}

std::string cudaExactValue(double value, const std::string& type) {
  return fmt::format("static_cast<{}>(__longlong_as_double(static_cast<long long>({:#x}ULL)))", type,
                     std::bit_cast<uint64_t>(value));
}

const AttrMap& InferContext::attrs() const { return node_.attrs(); }

const TensorType& InferContext::inputType(size_t i) const {
  TCX_CHECK(hasInput(i), ErrorKind::InvalidModel, "required input {} is missing", i);
  return *inputTypes_[i];
}

const Tensor& InferContext::requireInputValue(size_t i, const char* what) const {
  const Tensor* v = inputValue(i);
  TCX_CHECK(v != nullptr, ErrorKind::DataDependentShape,
            "the output shape depends on the value of input {} ({}), which is not a constant", i, what);
  return *v;
}

void InferContext::setOutputType(size_t i, TensorType type) {
  TCX_CHECK(i < outputTypes_.size(), ErrorKind::InvalidModel, "output {} is missing", i);
  outputTypes_[i] = std::move(type);
}

const AttrMap& KernelContext::attrs() const { return node_.attrs(); }

const Tensor& KernelContext::input(size_t i) const {
  TCX_CHECK(hasInput(i), ErrorKind::Internal, "kernel reads missing input {}", i);
  return *inputs_[i];
}

} // namespace tcx
