// Constant (its value in one of several attributes) and ConstantOfShape (a
// one-element value repeated over a shape given as an operand).

#include "ir/Dispatch.h"
#include "ops/OpRegistry.h"
#include "ops/metadata/MetadataOps.h"

#include <algorithm>
#include <cstring>

namespace tcx::metadata {

Tensor constantOfShapeValue(const AttrMap& attrs) {
  if (!attrs.has("value")) return Tensor::scalar(0.0f);
  const Tensor& value = attrs.getTensor("value");
  TCX_CHECK(value.numElements() == 1, ErrorKind::InvalidModel, "value must hold one element, got {}",
            value.type().toString());
  return value;
}

Tensor constantValue(const AttrMap& attrs) {
  TCX_CHECK(attrs.all().size() == 1, ErrorKind::InvalidModel, "Constant needs exactly one value attribute, got {}",
            attrs.all().size());
  TCX_CHECK(!attrs.has("value_string") && !attrs.has("value_strings"), ErrorKind::Unsupported,
            "string constants are not supported");
  TCX_CHECK(!attrs.has("sparse_value"), ErrorKind::Unsupported, "sparse constants are not supported");
  if (attrs.has("value_float")) return Tensor::scalar(attrs.getFloat("value_float"));
  if (attrs.has("value_int")) return Tensor::scalar(attrs.getInt("value_int"));
  if (attrs.has("value_floats")) {
    const std::vector<float>& values = attrs.getFloats("value_floats");
    return Tensor::fromVector(Shape{static_cast<int64_t>(values.size())}, values);
  }
  if (attrs.has("value_ints")) {
    const std::vector<int64_t>& values = attrs.getInts("value_ints");
    return Tensor::fromVector(Shape{static_cast<int64_t>(values.size())}, values);
  }
  return attrs.getTensor("value");
}

namespace {

OpDef constantOp() {
  OpDef def{.name = "Constant",
            .opClass = OpClass::Metadata,
            .minInputs = 0,
            .maxInputs = 0,
            .attributes = {{"value", AttrKind::Tensor},
                           {"value_float", AttrKind::Float},
                           {"value_floats", AttrKind::Floats},
                           {"value_int", AttrKind::Int},
                           {"value_ints", AttrKind::Ints},
                           {"value_string", AttrKind::String},
                           {"value_strings", AttrKind::Strings},
                           {"sparse_value", AttrKind::Tensor}}};
  def.infer = [](InferContext& ctx) { ctx.setOutputType(0, constantValue(ctx.attrs()).type()); };
  def.foldsAtAnySize = true; // the attribute holds the value already
  def.kernel = [](KernelContext& ctx) {
    Tensor value = constantValue(ctx.attrs());
    std::memcpy(ctx.output(0).raw(), value.raw(), value.byteSize());
  };
  return def;
}

OpDef constantOfShapeOp() {
  OpDef def{.name = "ConstantOfShape", .opClass = OpClass::Metadata, .attributes = {{"value", AttrKind::Tensor}}};
  def.infer = [](InferContext& ctx) {
    const TensorType& shapeType = ctx.inputType(0);
    TCX_CHECK(shapeType.dtype == DType::I64 && shapeType.rank() == 1, ErrorKind::ShapeInference,
              "the shape operand must be a 1-D i64 tensor, got {}", shapeType.toString());
    Shape shape = ctx.requireInputValue(0, "shape").toInt64Vector();
    for (int64_t d : shape)
      TCX_CHECK(d >= 0, ErrorKind::ShapeInference, "negative dimension in shape {}", shapeToString(shape));
    ctx.setOutputType(0, {constantOfShapeValue(ctx.attrs()).dtype(), std::move(shape)});
  };
  def.kernel = [](KernelContext& ctx) {
    Tensor value = constantOfShapeValue(ctx.attrs());
    dispatchDType(value.dtype(), [&]<typename T>() { std::ranges::fill(ctx.output(0).data<T>(), value.data<T>()[0]); });
  };
  return def;
}

} // namespace

void registerConstantOps(OpRegistry& registry) {
  registry.add(constantOp());
  registry.add(constantOfShapeOp());
}

} // namespace tcx::metadata
