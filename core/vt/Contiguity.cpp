#include "vt/Contiguity.h"

#include <algorithm>

namespace tcx {

const char* opportunityTypeName(OpportunityType t) { return t == OpportunityType::TypeI ? "I" : "II"; }

namespace {

int minContiguousDim(const MappingPiece& piece, const Shape& shape) {
  const int rank = static_cast<int>(shape.size());
  IndexExpr bias = piece.offset.nonAffinePart();
  int64_t suffix = 1;
  int d = rank;
  for (int i = rank - 1; i >= 0; --i) {
    bool cut = false;
    for (const IndexConstraint& c : piece.where) cut |= c.expr.mentions(i);
    // A dimension of extent 1 never breaks a run.
    bool strideOk = shape[i] == 1 || piece.offset.coefficientOf(i) == suffix;
    if (cut || !strideOk || bias.mentions(i)) break;
    suffix *= shape[i];
    d = i;
  }
  return d;
}

} // namespace

Contiguity analyzeContiguity(const MappingFunction& mapping, size_t elementBytes, int64_t coalescingBytes) {
  const Shape& shape = mapping.virtualShape();
  Contiguity c;
  c.minContiguousDim = 0;
  bool any = false;
  for (const MappingPiece& p : mapping.pieces()) {
    if (p.source == MappingPiece::kFill) continue;
    c.minContiguousDim = std::max(c.minContiguousDim, minContiguousDim(p, shape));
    any = true;
  }
  if (!any) c.minContiguousDim = 0;
  c.runElements = 1;
  for (size_t i = static_cast<size_t>(c.minContiguousDim); i < shape.size(); ++i) c.runElements *= shape[i];
  bool onePiece = mapping.pieces().size() == 1;
  c.full = onePiece && c.minContiguousDim == 0;
  c.partial = static_cast<int64_t>(c.runElements * elementBytes) >= coalescingBytes;
  return c;
}

} // namespace tcx
