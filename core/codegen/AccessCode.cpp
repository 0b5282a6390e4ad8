#include "codegen/AccessCode.h"

#include "codegen/CudaTypes.h"
#include "codegen/ModuleBuilder.h"
#include "ops/CudaLowering.h"
#include "plan/StridedView.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tcx {

namespace {

std::string pieceCondition(const MappingPiece& piece, const MappingFunction& mapping) {
  return cudaPieceCondition(piece, indexNames(mapping.virtualShape().size()), mapping.extents());
}

// Where a piece reads or writes: its buffer, with the positive constant term
// of its offset moved into the address the launch binds (ModuleBuilder::
// bufferRef), and the rest of its offset, in elements.
struct PieceAddress {
  std::string buffer;
  std::string offset;
};

PieceAddress addressOf(const PlanBuffer& buffer, const MappingPiece& piece, const MappingFunction& mapping) {
  const int64_t constant = std::max<int64_t>(piece.offset.constant(), 0);
  const IndexExpr rest = piece.offset - IndexExpr(constant);
  return {ModuleBuilder::bufferRef(buffer.id, constant * static_cast<int64_t>(dtypeSize(buffer.dtype))),
          rest.toString(indexNames(mapping.virtualShape().size()), mapping.extents())};
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
    const PieceAddress at = addressOf(buffer, piece, m);
    return fmt::format("    return tcx::load<{}>({}, {});\n", cudaStorageType(buffer.dtype), at.buffer, at.offset);
  });
  return fmt::format("__device__ __forceinline__ {} {}(const Buffers& b{}{}) {{\n{}}}\n\n", cudaComputeType(dtype),
                     name, m.virtualShape().empty() ? "" : ", ", indexParams(m.virtualShape().size()), body);
}

namespace {

// The statements `write(storageType, address)` gives for the piece of the
// access that holds at x0, x1, ...
template <typename F> std::string accessWrite(const TensorAccess& access, const ExecPlan& plan, F write) {
  const MappingFunction& m = access.mapping;
  return forEachPiece(m, true, "    ", [&](const MappingPiece& piece) {
    const PlanBuffer& buffer = sourceBuffer(access, plan, piece);
    return write(cudaStorageType(buffer.dtype), addressOf(buffer, piece, m));
  });
}

} // namespace

std::string accessStore(const TensorAccess& access, const ExecPlan& plan, const std::string& value) {
  return accessWrite(access, plan, [&](const char* type, const PieceAddress& at) {
    return fmt::format("      tcx::store<{}>({}, {}, {});\n", type, at.buffer, at.offset, value);
  });
}

std::string accessCombine(const TensorAccess& access, const ExecPlan& plan, const std::string& combine,
                          const std::string& value) {
  return accessWrite(access, plan, [&](const char* type, const PieceAddress& at) {
    return fmt::format("      tcx::atomicCombine<{}>(static_cast<{}*>({}) + ({}), {});\n", combine, type, at.buffer,
                       at.offset, value);
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
    const PieceAddress at = addressOf(sourceBuffer(from, plan, piece), piece, from.mapping);
    return fmt::format("      v = static_cast<const {}*>({})[{}];\n      holds = true;\n", type, at.buffer, at.offset);
  });
  code += "    if (!holds) continue;\n";
  code += forEachPiece(to.mapping, true, "    ", [&](const MappingPiece& piece) {
    const PieceAddress at = addressOf(sourceBuffer(to, plan, piece), piece, to.mapping);
    return fmt::format("      static_cast<{}*>({})[{}] = v;\n", type, at.buffer, at.offset);
  });
  return code;
}

Layout storeWalk(const TensorAccess& access, const ExecPlan& plan) {
  // As-exported buffers keep the walk as stated, and the code as it was.
  if (access.buffers.size() != 1 || plan.buffers[access.buffers[0]].layout.isIdentity()) return {};
  const std::optional<StridedView> view = stridedView(access);
  if (!view) return {};
  Layout walk;
  walk.order.resize(view->strides.size());
  for (size_t d = 0; d < walk.order.size(); ++d) walk.order[d] = static_cast<int>(d);
  // A dimension of extent 1 has no stride that matters; it stays outermost.
  const Shape& shape = access.value->type().shape;
  auto stride = [&](int d) { return shape[d] == 1 ? std::numeric_limits<int64_t>::max() : std::abs(view->strides[d]); };
  std::stable_sort(walk.order.begin(), walk.order.end(), [&](int a, int b) { return stride(a) > stride(b); });
  return walk.isIdentity() ? Layout{} : walk;
}

} // namespace tcx
