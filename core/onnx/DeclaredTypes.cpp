#include "onnx/DeclaredTypes.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

namespace tcx {

namespace {

// Initializers up to this size keep their data for ONNX's inference, which
// reads small shape and axes operands; weights only need their types.
constexpr size_t kMaxInferenceInitializerBytes = 1024;

onnx::TensorProto withoutWeights(const onnx::TensorProto& init) {
  if (init.ByteSizeLong() <= kMaxInferenceInitializerBytes) return init;
  onnx::TensorProto stripped;
  stripped.set_name(init.name());
  stripped.set_data_type(init.data_type());
  *stripped.mutable_dims() = init.dims();
  return stripped;
}

} // namespace

DeclaredTypes::DeclaredTypes(const onnx::ModelProto& model) : model_(model) { collect(model.graph()); }

void DeclaredTypes::collect(const onnx::GraphProto& graph) {
  auto record = [&](const std::string& name, int32_t elemType, std::optional<int64_t> rank) {
    Declared& d = types_[name];
    if (elemType != 0) d.elemType = elemType;
    if (rank) d.rank = rank;
  };
  auto recordInfo = [&](const onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type()) return;
    const onnx::TypeProto_Tensor& t = info.type().tensor_type();
    record(info.name(), t.elem_type(), t.has_shape() ? std::optional<int64_t>(t.shape().dim_size()) : std::nullopt);
  };
  for (const onnx::ValueInfoProto& info : graph.input()) recordInfo(info);
  for (const onnx::ValueInfoProto& info : graph.value_info()) recordInfo(info);
  for (const onnx::ValueInfoProto& info : graph.output()) recordInfo(info);
  for (const onnx::TensorProto& init : graph.initializer()) record(init.name(), init.data_type(), init.dims_size());
}

// ONNX's own inference fills in what the model leaves undeclared; it knows
// every historical opset, which is where the legacy forms come from. Its
// failures only leave types unknown.
void DeclaredTypes::inferWithOnnx() {
  inferred_ = true;
  onnx::ModelProto copy;
  copy.set_ir_version(model_.ir_version());
  *copy.mutable_opset_import() = model_.opset_import();
  const onnx::GraphProto& graph = model_.graph();
  onnx::GraphProto* g = copy.mutable_graph();
  *g->mutable_node() = graph.node();
  *g->mutable_input() = graph.input();
  *g->mutable_output() = graph.output();
  *g->mutable_value_info() = graph.value_info();
  for (const onnx::TensorProto& init : graph.initializer()) *g->add_initializer() = withoutWeights(init);
  try {
    onnx::shape_inference::InferShapes(copy);
  } catch (const std::exception&) {
    return;
  }
  collect(copy.graph());
}

const DeclaredTypes::Declared* DeclaredTypes::find(const std::string& name, bool (*known)(const Declared&)) {
  auto it = types_.find(name);
  if ((it == types_.end() || !known(it->second)) && !inferred_) {
    inferWithOnnx();
    it = types_.find(name);
  }
  return it != types_.end() && known(it->second) ? &it->second : nullptr;
}

std::optional<int32_t> DeclaredTypes::elemType(const std::string& name) {
  const Declared* d = find(name, [](const Declared& d) { return d.elemType != 0; });
  return d ? std::optional<int32_t>(d->elemType) : std::nullopt;
}

std::optional<int64_t> DeclaredTypes::rank(const std::string& name) {
  const Declared* d = find(name, [](const Declared& d) { return d.rank.has_value(); });
  return d ? d->rank : std::nullopt;
}

} // namespace tcx
