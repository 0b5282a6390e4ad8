// The CUDA form of the metadata ops that survive folding: those whose
// result is larger than folding keeps (passes/InferAndFold.h's
// maxFoldBytes), or whose operands are run-time values, and any of them
// whose result is a graph output (folding keeps a graph output's node, and
// so its name). Each computes an output element from its index alone.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/metadata/MetadataOps.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

namespace tcx::metadata {

namespace {

// A scalar operand's value, at index 0 of each of its dimensions.
std::string scalarOperand(const CudaElementContext& ctx, size_t operand) {
  return ctx.operandAt(operand, std::vector<std::string>(ctx.node.input(operand)->type().shape.size(), "0"));
}

// Element i of `value` as an expression of the compute type `type`, exactly.
// Integers go through their bits, which a double may not hold.
std::string elementLiteral(const Tensor& value, int64_t i, const std::string& type) {
  if (isFloatingPoint(value.dtype())) return cudaExactValue(value.elementAsDouble(i), type);
  return fmt::format("static_cast<{}>(static_cast<long long>({:#x}ULL))", type,
                     std::bit_cast<uint64_t>(value.elementAsInt64(i)));
}

// ConstantOfShape: the `value` attribute everywhere.
std::string constantOfShapeElement(const CudaElementContext& ctx) {
  return fmt::format("out = {};\n", elementLiteral(constantOfShapeValue(ctx.node.attrs()), 0, ctx.resultType));
}

// A result known now (Constant's value, Shape's and Size's from the operand's
// type) that is a graph output: a table indexed by the row-major offset.
std::string knownValueElement(const CudaElementContext& ctx, const Tensor& value) {
  std::string table, offset = "0";
  for (int64_t i = 0; i < value.numElements(); ++i) table += (i ? ", " : "") + elementLiteral(value, i, ctx.resultType);
  const Shape& shape = value.shape();
  for (size_t d = 0; d < shape.size(); ++d) offset = fmt::format("({}) * {} + {}", offset, shape[d], ctx.outIndex[d]);
  return fmt::format("const {} _table[{}] = {{{}}};\nout = _table[{}];\n", ctx.resultType,
                     std::max<int64_t>(value.numElements(), 1), table, offset);
}

std::string constantElement(const CudaElementContext& ctx) {
  return knownValueElement(ctx, constantValue(ctx.node.attrs()));
}

std::string fromTypesElement(const CudaElementContext& ctx) {
  return knownValueElement(ctx, ctx.node.op().resultFromTypes(ctx.node));
}

// EyeLike: ones on the k-th diagonal.
std::string eyeLikeElement(const CudaElementContext& ctx) {
  const Shape& shape = ctx.node.output(0)->type().shape;
  const int64_t k = eyeDiagonal(ctx.node.attrs(), shape[0], shape[1]);
  return fmt::format("out = static_cast<{}>({} == {} + ({}) ? 1 : 0);\n", ctx.resultType, ctx.outIndex[1],
                     ctx.outIndex[0], k);
}

// Range: start + i * delta, in the compute type as on the CPU; start and
// delta are read as operands, so they may be run-time values.
std::string rangeElement(const CudaElementContext& ctx) {
  return fmt::format("out = static_cast<{T}>({start}) + static_cast<{T}>({i}) * static_cast<{T}>({delta});\n",
                     fmt::arg("T", ctx.resultType),
                     fmt::arg("start", scalarOperand(ctx, 0)), fmt::arg("i", ctx.outIndex[0]),
                     fmt::arg("delta", scalarOperand(ctx, 2)));
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  registry.edit("Constant").cudaElement = constantElement;
  registry.edit("Shape").cudaElement = fromTypesElement;
  registry.edit("Size").cudaElement = fromTypesElement;
  registry.edit("ConstantOfShape").cudaElement = constantOfShapeElement;
  registry.edit("EyeLike").cudaElement = eyeLikeElement;
  registry.edit("Range").cudaElement = rangeElement;
}

} // namespace tcx::metadata
