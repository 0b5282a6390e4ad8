// Shape (a slice of the input's dimensions) and Size (its element count).
// Both depend on the input's type only, so they fold away at import even
// when the input's value is unknown (resultFromTypes).

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/metadata/MetadataOps.h"

#include <algorithm>
#include <utility>

namespace tcx::metadata {

namespace {

// Shape's [start, end): negative values count from the end, then both clamp
// to [0, rank].
std::pair<int64_t, int64_t> shapeSlice(const AttrMap& attrs, int64_t rank) {
  auto clampAxis = [rank](int64_t axis) { return std::clamp<int64_t>(axis < 0 ? axis + rank : axis, 0, rank); };
  int64_t start = clampAxis(attrs.getInt("start", 0));
  int64_t end = clampAxis(attrs.getInt("end", rank));
  return {start, std::max(start, end)};
}

OpDef shapeOp() {
  OpDef def{.name = "Shape",
            .opClass = OpClass::Metadata,
            .attributes = {{"start", AttrKind::Int}, {"end", AttrKind::Int}}};
  def.infer = [](InferContext& ctx) {
    auto [start, end] = shapeSlice(ctx.attrs(), ctx.inputType(0).rank());
    ctx.setOutputType(0, {DType::I64, {end - start}});
  };
  def.kernel = [](KernelContext& ctx) {
    const Shape& shape = ctx.input(0).shape();
    auto [start, end] = shapeSlice(ctx.attrs(), static_cast<int64_t>(shape.size()));
    std::copy(shape.begin() + start, shape.begin() + end, ctx.output(0).data<int64_t>().begin());
  };
  def.resultFromTypes = [](const Node& node) {
    const Shape& shape = node.input(0)->type().shape;
    auto [start, end] = shapeSlice(node.attrs(), static_cast<int64_t>(shape.size()));
    return Tensor::fromVector<int64_t>({end - start}, std::vector<int64_t>(shape.begin() + start, shape.begin() + end));
  };
  return def;
}

OpDef sizeOp() {
  OpDef def{.name = "Size", .opClass = OpClass::Metadata};
  def.infer = [](InferContext& ctx) { ctx.setOutputType(0, {DType::I64, {}}); };
  def.kernel = [](KernelContext& ctx) { ctx.output(0).data<int64_t>()[0] = ctx.input(0).numElements(); };
  def.resultFromTypes = [](const Node& node) {
    return Tensor::scalar<int64_t>(node.input(0)->type().numElements());
  };
  return def;
}

} // namespace

void registerShapeOps(OpRegistry& registry) {
  registry.add(shapeOp());
  registry.add(sizeOp());
}

} // namespace tcx::metadata
