#include "vt/RowWalker.h"

#include <algorithm>

namespace tcx {

namespace {
int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceilDivInt(int64_t a, int64_t b) { return -floorDivInt(-a, b); }
} // namespace

RowWalker::RowWalker(const MappingFunction& mapping)
    : mapping_(mapping), shape_(mapping.virtualShape().empty() ? Shape{1} : mapping.virtualShape()),
      rowLength_(shape_.back()) {
  const int last = static_cast<int>(mapping.virtualShape().size()) - 1;
  for (const MappingPiece& p : mapping.pieces()) {
    bool affine = true;
    if (last >= 0) {
      for (const IndexConstraint& c : p.where) affine &= !c.expr.nonAffinePart().mentions(last);
      if (p.source != MappingPiece::kFill) affine &= !p.offset.nonAffinePart().mentions(last);
    }
    int64_t stride = last >= 0 && p.source != MappingPiece::kFill ? p.offset.coefficientOf(last) : 0;
    pieces_.push_back({&p, affine, stride});
  }
}

int64_t RowWalker::numRows() const { return rowLength_ == 0 ? 0 : numElements(shape_) / rowLength_; }

void RowWalker::nextRow(std::vector<int64_t>& x) const {
  for (size_t d = shape_.size() - 1; d-- > 0;) {
    if (++x[d] < shape_[d]) return;
    x[d] = 0;
  }
}

void RowWalker::segmentsOfRow(std::vector<int64_t>& x, std::vector<RowSegment>& out) const {
  out.clear();
  const size_t last = shape_.size() - 1;
  const bool scalar = mapping_.virtualShape().empty();
  const int64_t n = shape_[last];
  for (const PieceInfo& info : pieces_) {
    const MappingPiece& p = *info.piece;
    if (info.affineInLast || scalar) {
      x[last] = 0;
      int64_t lo = 0, hi = n;
      for (const IndexConstraint& c : p.where) {
        int64_t v0 = c.expr.evaluate(x.data());
        int64_t a = scalar ? 0 : c.expr.coefficientOf(static_cast<int>(last));
        if (a == 0) {
          if (v0 < c.lo || v0 >= c.hi) hi = lo;
        } else if (a > 0) {
          lo = std::max(lo, ceilDivInt(c.lo - v0, a));
          hi = std::min(hi, floorDivInt(c.hi - 1 - v0, a) + 1);
        } else {
          lo = std::max(lo, ceilDivInt(c.hi - 1 - v0, a));
          hi = std::min(hi, floorDivInt(c.lo - v0, a) + 1);
        }
      }
      if (lo >= hi) continue;
      int64_t base = p.source == MappingPiece::kFill ? 0 : p.offset.evaluate(x.data());
      out.push_back({lo, hi, p.source, base, info.stride, p.fillValue});
    } else {
      for (int64_t t = 0; t < n; ++t) {
        x[last] = t;
        if (!p.holdsAt(x.data())) continue;
        int64_t offset = p.source == MappingPiece::kFill ? 0 : p.offset.evaluate(x.data());
        out.push_back({t, t + 1, p.source, offset, 0, p.fillValue});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const RowSegment& a, const RowSegment& b) { return a.lo < b.lo; });
  x[last] = 0;
}

} // namespace tcx
