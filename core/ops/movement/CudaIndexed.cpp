// The CUDA form of the ops that address data through an index operand:
// the gathers (one output element each) and the scatters (one update each,
// CudaScatterForm). Their index operands are read at run time, so these
// forms serve the index operands that VTC cannot see through: model inputs
// (token ids, a cache position) and values computed from them.
//
// Index values count from the end when negative, as on the CPU. The CPU
// reference rejects values outside [-size, size); here they clamp to the
// nearest element (tcx::wrapIndex), so that a bad index reads or writes a
// wrong element but never outside the tensor. Updates that land on one
// element combine atomically under a reduction; without one they race, and
// which is stored last is not defined (ONNX leaves duplicate indices
// undefined there; the CPU applies them in index order).

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/Operands.h"
#include "ops/movement/ScatterReduction.h"

#include <fmt/format.h>

namespace tcx {

namespace {

const Shape& shapeOf(const Node& node, size_t operand) { return node.input(operand)->type().shape; }

// The `axis` attribute (0 by default) of an op indexing data (operand 0)
// along one axis.
size_t dataAxis(const Node& node) {
  return static_cast<size_t>(
      dimensionAxis(node.attrs().getInt("axis", 0), static_cast<int64_t>(shapeOf(node, 0).size())));
}

// The element of an axis of `size` that the index value `value` selects.
std::string wrapped(const std::string& value, int64_t size) {
  return fmt::format("Index(tcx::wrapIndex({}, {}LL))", value, size);
}

// Gather: output [outer..., indices..., inner...] reads data [outer...,
// indices[...], inner...] along `axis`; scalar indices drop the axis.
std::string gatherElement(const CudaElementContext& ctx) {
  const Shape& data = shapeOf(ctx.node, 0);
  const size_t axis = dataAxis(ctx.node);
  const auto first = ctx.outIndex.begin() + static_cast<std::ptrdiff_t>(axis);
  const auto last = first + static_cast<std::ptrdiff_t>(shapeOf(ctx.node, 1).size());
  std::vector<std::string> at(ctx.outIndex.begin(), first);
  at.push_back("_i");
  at.insert(at.end(), last, ctx.outIndex.end());
  return fmt::format("const Index _i = {};\nout = {};\n",
                     wrapped(ctx.operandAt(1, std::vector<std::string>(first, last)), data[axis]),
                     ctx.operandAt(0, at));
}

// GatherElements: the output element at i reads data at i with its `axis`
// coordinate replaced by indices[i] (AxisAddressing, Indexing.h).
std::string gatherElementsElement(const CudaElementContext& ctx) {
  const Shape& data = shapeOf(ctx.node, 0);
  const size_t axis = dataAxis(ctx.node);
  std::vector<std::string> at = ctx.outIndex;
  at[axis] = "_i";
  return fmt::format("const Index _i = {};\nout = {};\n", wrapped(ctx.operandAt(1, ctx.outIndex), data[axis]),
                     ctx.operandAt(0, at));
}

// Statements declaring `<prefix>0` .. `<prefix>k-1`, the data coordinates
// that the index tuple at `tuple` selects (GatherND and ScatterND: indices
// [tuple..., k] address dimensions `first` .. first + k - 1 of data).
std::string tupleCoordinates(const CudaOperandFn& indicesAt, const std::vector<std::string>& tuple,
                             const Shape& data, size_t first, int64_t k, const char* prefix,
                             std::vector<std::string>& names) {
  std::string code;
  for (int64_t j = 0; j < k; ++j) {
    std::vector<std::string> at = tuple;
    at.push_back(std::to_string(j));
    const size_t d = first + static_cast<size_t>(j);
    const std::string name = fmt::format("{}{}", prefix, d);
    code += fmt::format("const Index {} = {};\n", name, wrapped(indicesAt(1, at), data[d]));
    names.push_back(name);
  }
  return code;
}

// GatherND: output [batch..., tuple..., block...] (TupleAddressing,
// Indexing.h) reads data [batch..., the tuple's k coordinates, block...].
std::string gatherNDElement(const CudaElementContext& ctx) {
  const Shape& data = shapeOf(ctx.node, 0);
  const Shape& indices = shapeOf(ctx.node, 1);
  const auto batch = static_cast<std::ptrdiff_t>(ctx.node.attrs().getInt("batch_dims", 0));
  const auto tupleRank = static_cast<std::ptrdiff_t>(indices.size()) - 1;
  const std::vector<std::string> tuple(ctx.outIndex.begin(), ctx.outIndex.begin() + tupleRank);
  std::vector<std::string> at(ctx.outIndex.begin(), ctx.outIndex.begin() + batch);
  std::string code = tupleCoordinates(ctx.operandAt, tuple, data, static_cast<size_t>(batch), indices.back(), "_i", at);
  at.insert(at.end(), ctx.outIndex.begin() + tupleRank, ctx.outIndex.end());
  return code + fmt::format("out = {};\n", ctx.operandAt(0, at));
}

ScatterCombine scatterCombine(const Node& node) {
  switch (scatterReduction(node.attrs())) {
  case Reduction::None: return ScatterCombine::Store;
  case Reduction::Add: return ScatterCombine::Add;
  case Reduction::Mul: return ScatterCombine::Mul;
  case Reduction::Max: return ScatterCombine::Max;
  case Reduction::Min: return ScatterCombine::Min;
  }
  return ScatterCombine::Store;
}

// ScatterND: updates [tuple..., block...] land at data [the tuple's k
// coordinates, block...].
std::string scatterNDUpdate(const CudaScatterContext& ctx) {
  const Shape& data = shapeOf(ctx.node, 0);
  const Shape& indices = shapeOf(ctx.node, 1);
  const auto tupleRank = static_cast<std::ptrdiff_t>(indices.size()) - 1;
  const std::vector<std::string> tuple(ctx.updateIndex.begin(), ctx.updateIndex.begin() + tupleRank);
  std::vector<std::string> destination;
  std::string code = tupleCoordinates(ctx.operandAt, tuple, data, 0, indices.back(), "_d", destination);
  for (size_t d = destination.size(); d < data.size(); ++d)
    code += fmt::format("const Index _d{} = {};\n", d,
                        ctx.updateIndex[static_cast<size_t>(tupleRank) + d - destination.size()]);
  return code + fmt::format("out = {};\n", ctx.operandAt(2, ctx.updateIndex));
}

// ScatterElements: the update at i lands at i with its `axis` coordinate
// replaced by indices[i].
std::string scatterElementsUpdate(const CudaScatterContext& ctx) {
  const Shape& data = shapeOf(ctx.node, 0);
  const size_t axis = dataAxis(ctx.node);
  std::string code;
  for (size_t d = 0; d < data.size(); ++d)
    code += fmt::format("const Index _d{} = {};\n", d,
                        d == axis ? wrapped(ctx.operandAt(1, ctx.updateIndex), data[axis]) : ctx.updateIndex[d]);
  return code + fmt::format("out = {};\n", ctx.operandAt(2, ctx.updateIndex));
}

// Both scatters have an update for every element of their updates operand.
Shape updatesShape(const Node& node) { return shapeOf(node, 2); }

} // namespace

void registerIndexedCudaForms(OpRegistry& registry) {
  registry.edit("Gather").cudaElement = gatherElement;
  registry.edit("GatherElements").cudaElement = gatherElementsElement;
  registry.edit("GatherND").cudaElement = gatherNDElement;
  registry.edit("ScatterND").cudaScatter = {updatesShape, scatterCombine, scatterNDUpdate};
  registry.edit("ScatterElements").cudaScatter = {updatesShape, scatterCombine, scatterElementsUpdate};
}

} // namespace tcx
