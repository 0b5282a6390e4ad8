#pragma once
// Walks a mapping function row by row: for each index of all dimensions but
// the last, the segments of the last dimension on which one piece holds,
// with the source offset as base + stride * t. Pieces that are affine in the
// last index (nearly all: that is where contiguity lives) give one segment
// per row; others fall back to one segment per element. Executors copy
// through mappings this way at memory speed instead of evaluating every
// index expression per element.

#include "index/MappingFunction.h"

#include <vector>

namespace tcx {

struct RowSegment {
  int64_t lo, hi; // last-dimension range [lo, hi)
  int source;     // or MappingPiece::kFill
  int64_t base;   // the source offset at t is base + stride * t
  int64_t stride;
  double fillValue;
};

class RowWalker {
public:
  explicit RowWalker(const MappingFunction& mapping);

  // Calls f(rowIndex, x, segments) for every row in row-major order, where
  // rowIndex counts rows (the row's first linear index is rowIndex * rowLength())
  // and x holds the row's outer indices.
  template <typename F> void forEachRow(F&& f) const;
  int64_t rowLength() const { return rowLength_; }
  int64_t numRows() const;
  // The segments of the row whose outer indices are x (x[last] is scratch).
  void segmentsOfRow(std::vector<int64_t>& x, std::vector<RowSegment>& out) const;
  // Advances x to the next row's outer indices (row-major).
  void nextRow(std::vector<int64_t>& x) const;

private:

  struct PieceInfo {
    const MappingPiece* piece;
    bool affineInLast;
    int64_t stride;
  };
  const MappingFunction& mapping_;
  Shape shape_; // the virtual shape, rank >= 1 (a scalar walks as [1])
  int64_t rowLength_;
  std::vector<PieceInfo> pieces_;
};

template <typename F> void RowWalker::forEachRow(F&& f) const {
  std::vector<int64_t> x(shape_.size(), 0);
  std::vector<RowSegment> segments;
  for (int64_t row = 0, rows = numRows(); row < rows; ++row) {
    segmentsOfRow(x, segments);
    f(row, x, segments);
    nextRow(x);
  }
}

} // namespace tcx
