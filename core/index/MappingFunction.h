#pragma once
// A mapping function (VTC Definition 3): F maps each index x of a virtual
// tensor V to (j, y), element y of source tensor P_j. Sources are the
// tensors V is virtual over: a data-movement op's operands, other virtual
// tensors (then mappings compose, F_outer o F_base), or physical buffers.
//
// F is piecewise: each piece holds on a region given by constraints
// lo <= e(x) < hi and maps there to one source with one index expression
// per source dimension. Split, Concat, ScatterND and Slice produce several
// pieces or constrained ones; Pad's border is a piece that reads a
// constant. Within a piece the source offset is S.I + b(I) (VTC Remark 1):
// plain strides plus div/mod atoms for Expand, Tile and reshapes that do
// not line up.

#include "ir/Shape.h"
#include "index/IndexExpr.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx {

struct IndexConstraint {
  IndexExpr expr;
  int64_t lo, hi; // lo <= expr < hi
  bool operator==(const IndexConstraint&) const = default;
};

struct MappingPiece {
  static constexpr int kFill = -1;

  std::vector<IndexConstraint> where; // all hold; empty: everywhere
  int source = 0;                     // index into the sources, or kFill
  double fillValue = 0;               // for kFill pieces
  std::vector<IndexExpr> index;       // one per source dimension
  IndexExpr offset;                   // row-major offset into the source (set by addPiece)

  bool holdsAt(const int64_t* x) const;
  bool operator==(const MappingPiece&) const = default;
};

class MappingFunction {
public:
  MappingFunction() = default;
  MappingFunction(Shape virtualShape, std::vector<Shape> sourceShapes);

  // V = P_0 (same shape, same indices).
  static MappingFunction identity(const Shape& shape);
  // V[x] = P_0[y] with y_k = sum_d strides[k][d] * x_d + offsets[k]: affine
  // maps (Transpose, Slice with steps, Squeeze, Unsqueeze, Expand's stride 0).
  static MappingFunction affine(const Shape& virtualShape, const Shape& sourceShape,
                                const std::vector<std::vector<int64_t>>& strides, const std::vector<int64_t>& offsets);
  // V = P_0 with the same elements in row-major order (Reshape, Flatten).
  static MappingFunction reshape(const Shape& virtualShape, const Shape& sourceShape);

  const Shape& virtualShape() const { return virtualShape_; }
  const std::vector<Shape>& sourceShapes() const { return sourceShapes_; }
  const std::vector<MappingPiece>& pieces() const { return pieces_; }
  VarExtents extents() const { return virtualShape_; }

  // Adds a piece: drops constraints that always hold, ignores a piece whose
  // constraints never hold, and sets its row-major source offset (the
  // S.I + b(I) form).
  void addPiece(MappingPiece piece);

  // Resolves every source through a mapping of its shape onto other
  // sources: source j through inners[j], each piece over j replaced by its
  // compositions with inners[j]'s pieces. The result's sources are
  // inners[0]'s, then inners[1]'s, and so on. All in one pass over the
  // pieces: resolving one source at a time re-added every other source's
  // pieces each time, quadratic in a concatenation's inputs (DenseNet-121's
  // up to 24, lowered for each of the greedy's plan evaluations).
  MappingFunction composeSources(const std::vector<MappingFunction>& inners) const;
  // Re-indexes sources: source s becomes newIndex[s] (sources may merge),
  // with newShapes the resulting source shapes. Where every piece then reads
  // one source at one offset, they become one unguarded piece.
  MappingFunction remapSources(const std::vector<int>& newIndex, const std::vector<Shape>& newShapes) const;

  // (source, offset) of virtual index x; source kFill for a fill piece.
  struct Target {
    int source;
    int64_t offset;
    double fillValue;
  };
  Target evaluate(const int64_t* x) const;

  // Whether every virtual index falls in exactly one piece (vt/Regions.h).
  bool coversExactlyOnce() const;
  bool isIdentity() const; // one piece, same shape, y = x
  std::string toString(const std::vector<std::string>& sourceNames = {}) const;

  bool operator==(const MappingFunction&) const = default;

private:
  Shape virtualShape_;
  std::vector<Shape> sourceShapes_;
  std::vector<MappingPiece> pieces_;
};

// The multi-index of element `offset` (an expression over variables of
// extents `ext`) of a row-major tensor of `shape`. A shape with no elements
// has no element to index: its index is all zeros, so that no expression
// divides by its zero extent.
std::vector<IndexExpr> unflattenOffset(const IndexExpr& offset, const Shape& shape, const VarExtents& ext);

} // namespace tcx
