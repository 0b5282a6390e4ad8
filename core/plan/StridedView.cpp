#include "plan/StridedView.h"

namespace tcx {

namespace {

// The view of one piece's offset over the whole of `shape`.
std::optional<StridedView> pieceView(const MappingPiece& piece, const Shape& shape, int groupedDim, int64_t group) {
  if (piece.source == MappingPiece::kFill) return std::nullopt;
  const int rank = static_cast<int>(shape.size());
  IndexExpr offset = piece.offset;
  VarExtents extents = shape;
  // A group of 1 divides nothing: the plain view (the substitution below would leave r, whose
  // extent is 1, in the offset).
  if (groupedDim >= 0 && group > 1) {
    if (shape[groupedDim] % group != 0) return std::nullopt;
    // x_g = group * y + r, with y in x_g's place and r a new variable: the
    // offset must be affine in y and not depend on r.
    std::vector<IndexExpr> replacements;
    for (int d = 0; d < rank; ++d)
      replacements.push_back(d == groupedDim ? IndexExpr::var(d) * group + IndexExpr::var(rank) : IndexExpr::var(d));
    extents[groupedDim] = shape[groupedDim] / group;
    extents.push_back(group);
    offset = offset.substitute(replacements, extents);
    if (offset.mentions(rank)) return std::nullopt;
  }
  if (!offset.isAffine()) return std::nullopt;
  StridedView view;
  view.buffer = piece.source;
  view.offset = offset.constant();
  for (int d = 0; d < rank; ++d) view.strides.push_back(offset.coefficientOf(d));
  view.groupedDim = groupedDim;
  view.group = group;
  return view;
}

} // namespace

std::optional<StridedView> stridedView(const TensorAccess& access, int groupedDim, int64_t group) {
  std::optional<StridedView> view = stridedView(access.mapping, groupedDim, group);
  if (view) view->buffer = access.buffers.at(view->buffer);
  return view;
}

std::optional<StridedView> stridedView(const MappingFunction& m, int groupedDim, int64_t group) {
  if (m.pieces().size() != 1 || !m.pieces().front().where.empty()) return std::nullopt;
  return pieceView(m.pieces().front(), m.virtualShape(), groupedDim, group);
}

bool hasPackedStrides(const StridedView& view, const Shape& shape) {
  int64_t packed = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; packed *= shape[d--])
    if (shape[d] != 1 && view.strides[d] != packed) return false;
  return true;
}

StridedView rowMajorView(int buffer, const Shape& shape) {
  StridedView view;
  view.buffer = buffer;
  view.strides.assign(shape.size(), 0);
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0; stride *= shape[d]) view.strides[d] = stride;
  return view;
}

bool hasStridedView(const TensorAccess& access) {
  if (stridedView(access)) return true;
  if (access.mapping.pieces().size() != 1) return false;
  for (const IndexExpr::Term& t : access.mapping.pieces().front().offset.terms()) {
    if (t.atom->kind != IndexExpr::Atom::Kind::FloorDiv) continue;
    for (int d = 0; d < static_cast<int>(access.mapping.virtualShape().size()); ++d)
      if (t.atom->operand == IndexExpr::var(d) && stridedView(access, d, t.atom->divisor)) return true;
  }
  return false;
}

} // namespace tcx
