#include "codegen/AccessCode.h"

#include "codegen/CudaTypes.h"
#include "codegen/ModuleBuilder.h"
#include "ops/CudaLowering.h"

#include <fmt/format.h>

namespace tcx {

namespace {

std::string pieceCondition(const MappingPiece& piece, const MappingFunction& mapping) {
  return cudaPieceCondition(piece, indexNames(mapping.virtualShape().size()), mapping.extents());
}

std::string offsetOf(const MappingPiece& piece, const MappingFunction& mapping) {
  return piece.offset.toString(indexNames(mapping.virtualShape().size()), mapping.extents());
}

// Emits `action(piece)` under each piece's condition, first match wins. The
// last piece of a mapping that covers every index needs no test.
template <typename F>
std::string forEachPiece(const MappingFunction& mapping, bool total, const std::string& indent, F action) {
  std::string code;
  const auto& pieces = mapping.pieces();
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string condition = pieceCondition(pieces[i], mapping);
    const bool last = i + 1 == pieces.size();
    if (condition.empty() || (last && total)) {
      code += fmt::format("{}{{\n{}{}}}\n", indent + (i ? "else " : ""), action(pieces[i]), indent);
      break;
    }
    code += fmt::format("{}if ({}) {{\n{}{}}}\n", indent + (i ? "else " : ""), condition, action(pieces[i]), indent);
  }
  return code;
}

const PlanBuffer& sourceBuffer(const TensorAccess& access, const ExecPlan& plan, const MappingPiece& piece) {
  return plan.buffers.at(access.buffers.at(piece.source));
}

} // namespace

std::string accessLoadFunction(const std::string& name, const TensorAccess& access, const ExecPlan& plan) {
  const DType dtype = access.value->type().dtype;
  const MappingFunction& m = access.mapping;
  std::string body = forEachPiece(m, true, "  ", [&](const MappingPiece& piece) {
    if (piece.source == MappingPiece::kFill) return fmt::format("    return {};\n", cudaLiteral(piece.fillValue, dtype));
    const PlanBuffer& buffer = sourceBuffer(access, plan, piece);
    return fmt::format("    return tcx::load<{}>(b.p[{}], {});\n", cudaStorageType(buffer.dtype), buffer.id,
                       offsetOf(piece, m));
  });
  return fmt::format("__device__ __forceinline__ {} {}(const Buffers& b{}{}) {{\n{}}}\n\n", cudaComputeType(dtype),
                     name, m.virtualShape().empty() ? "" : ", ", indexParams(m.virtualShape().size()), body);
}

namespace {

// The statements `write(storageType, buffer, offset)` gives for the piece of
// the access that holds at x0, x1, ...
template <typename F> std::string accessWrite(const TensorAccess& access, const ExecPlan& plan, F write) {
  const MappingFunction& m = access.mapping;
  return forEachPiece(m, true, "    ", [&](const MappingPiece& piece) {
    const PlanBuffer& buffer = sourceBuffer(access, plan, piece);
    return write(cudaStorageType(buffer.dtype), buffer.id, offsetOf(piece, m));
  });
}

} // namespace

std::string accessStore(const TensorAccess& access, const ExecPlan& plan, const std::string& value) {
  return accessWrite(access, plan, [&](const char* type, int buffer, const std::string& offset) {
    return fmt::format("      tcx::store<{}>(b.p[{}], {}, {});\n", type, buffer, offset, value);
  });
}

std::string accessCombine(const TensorAccess& access, const ExecPlan& plan, const std::string& combine,
                          const std::string& value) {
  return accessWrite(access, plan, [&](const char* type, int buffer, const std::string& offset) {
    return fmt::format("      tcx::atomicCombine<{}>(static_cast<{}*>(b.p[{}]) + ({}), {});\n", combine, type, buffer,
                       offset, value);
  });
}

std::string regionCopy(const TensorAccess& from, const TensorAccess& to, const ExecPlan& plan) {
  const char* type = cudaStorageType(to.value->type().dtype);
  std::string code = fmt::format("    {} v;\n    bool holds = false;\n", type);
  // Only where a piece of `from` holds is this kernel's to write.
  code += forEachPiece(from.mapping, false, "    ", [&](const MappingPiece& piece) {
    if (piece.source == MappingPiece::kFill)
      return fmt::format("      v = tcx::FromCompute<{}>::convert({});\n      holds = true;\n", type,
                         cudaLiteral(piece.fillValue, to.value->type().dtype));
    const PlanBuffer& buffer = sourceBuffer(from, plan, piece);
    return fmt::format("      v = static_cast<const {}*>(b.p[{}])[{}];\n      holds = true;\n", type, buffer.id,
                       offsetOf(piece, from.mapping));
  });
  code += "    if (!holds) continue;\n";
  code += forEachPiece(to.mapping, true, "    ", [&](const MappingPiece& piece) {
    const PlanBuffer& buffer = sourceBuffer(to, plan, piece);
    return fmt::format("      static_cast<{}*>(b.p[{}])[{}] = v;\n", type, buffer.id, offsetOf(piece, to.mapping));
  });
  return code;
}

} // namespace tcx
